"""The network side of the client: one connection (:mod:`.connection`), a session across
dropped connections (:mod:`.session`), seat tokens kept on disk (:mod:`.tokens`), LAN discovery
(:mod:`.discover`) and the driver of a bot at a seat (:mod:`.network_bot`)."""
