package sections

import (
	"context"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr/nip19"
)

// People read npubs: revoking someone without a grant names them as an npub.
func TestRevokeWithoutGrantNamesTheReaderAsNpub(t *testing.T) {
	w := &Workspace{Owner: strings.Repeat("a", 64), Readers: map[string]Role{}}
	stranger := strings.Repeat("b", 64)
	_, err := w.RevokeBody(context.Background(), nil, stranger)
	npub, _ := nip19.EncodePublicKey(stranger)
	if err == nil || !strings.Contains(err.Error(), npub) || strings.Contains(err.Error(), stranger) {
		t.Fatalf("err %v, want it to name %s", err, npub)
	}
}
