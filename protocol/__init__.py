"""The wire format: framing, the message catalogue, one encode/decode, error codes.

Nothing outside this package imports msgpack. No reactor use here: the server and the client
drive these functions from their own Twisted protocols. (Arrives with the protocol issue.)
"""
