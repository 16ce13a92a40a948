package clitest

// DeadRelay refuses connections: nothing listens on port 1.
const DeadRelay = "ws://127.0.0.1:1"
