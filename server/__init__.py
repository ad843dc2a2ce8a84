"""The Twisted game server: connection protocol -> session state machine -> lobby/tables -> engine.

Tables own engine states and never touch transports; time comes from an injected clock.
(Arrives with the server issue.)
"""
