"""Live updates over websockets: what the games send after a commit (``games``: a game's and
a daily leaderboard's groups), how it is published through the channel layer (``publish``),
the check that the layer still delivers (``layer_watch``), and the caps on websockets open at
once (``connection_cap``). The consumers that carry them are the apps' own
(``games.consumers``, ``accounts.websocket``)."""
