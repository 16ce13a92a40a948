package relaypool

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/coder/websocket"
)

// maxMessageBytes bounds one message from a relay: go-nostr's read limit.
const maxMessageBytes = 2 << 24

// socket is the websocket of one conn: coder/websocket, dialed as
// go-nostr's NewConnection dials it (compression with context takeover, the
// same headers and read limit). We keep the *websocket.Conn ourselves
// because go-nostr's Connection closes only through the close handshake,
// which waits up to 5 s to send the close frame and 5 s more for a silent
// relay's answer; a conn must close at once (closeNow).
type socket struct{ ws *websocket.Conn }

func dialSocket(ctx context.Context, url string) (*socket, error) {
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		CompressionMode: websocket.CompressionContextTakeover,
		HTTPHeader:      http.Header{"User-Agent": {"github.com/nbd-wtf/go-nostr"}},
	})
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(maxMessageBytes)
	return &socket{ws: ws}, nil
}

// readMessage reads the next data message into buf.
func (s *socket) readMessage(ctx context.Context, buf io.Writer) error {
	_, r, err := s.ws.Reader(ctx)
	if err != nil {
		return fmt.Errorf("failed to get reader: %w", err)
	}
	if _, err := io.Copy(buf, r); err != nil {
		return fmt.Errorf("failed to read message: %w", err)
	}
	return nil
}

// writeMessage writes one text message.
func (s *socket) writeMessage(ctx context.Context, msg []byte) error {
	if err := s.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		return fmt.Errorf("failed to write message: %w", err)
	}
	return nil
}

// closeNow closes the TCP connection without a close handshake and waits
// for the library's goroutines to stop; it is bounded (nothing waits on
// the relay) and safe to call more than once.
func (s *socket) closeNow() { _ = s.ws.CloseNow() }
