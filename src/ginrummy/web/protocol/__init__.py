"""The wire protocol: inbound messages (pydantic), the state message, replay frames."""
