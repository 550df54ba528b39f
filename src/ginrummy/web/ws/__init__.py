"""The WebSocket endpoints: one :class:`~ginrummy.web.ws.connection.Connection` type (bounded
writer, frame decoding), the game socket (a dispatch table by message type) and the lobby socket."""
