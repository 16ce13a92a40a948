package signer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip44"
)

// kindNostrConnect is NIP-46's request/response kind.
const kindNostrConnect = 24133

// DefaultBunkerTimeout bounds one bunker request when the caller's context has
// no deadline. It is long because a bunker may wait for a human to approve.
const DefaultBunkerTimeout = 90 * time.Second

// BunkerSigner signs through a NIP-46 remote signer. roster holds only the
// client key (in the keyring or an ncryptsec file); the user's key stays in
// the bunker.
//
// Each request opens its own relay connections, subscribes for the answer,
// waits for EOSE so the relay is known to be listening, and only then
// publishes: NIP-46 answers are ephemeral and a relay delivers them only to a
// subscription that already exists. (go-nostr's client publishes while its
// subscription may still be in flight, and its keyer's Decrypt calls encrypt.)
type BunkerSigner struct {
	clientSK string
	clientPK string
	remote   string
	user     string
	relays   []string
	ck       [32]byte
	// OnAuthURL is called when the bunker asks the user to approve a request
	// at a URL; the request keeps waiting for the answer.
	OnAuthURL func(url string)
	// Timeout bounds one request when ctx has no deadline.
	Timeout time.Duration
}

var _ Signer = (*BunkerSigner)(nil)

// NewBunkerSigner builds a signer for an already connected bunker session:
// clientSK is the stored client key and userPubkey the pubkey the bunker
// reported at login.
func NewBunkerSigner(clientSK string, b BunkerURL, userPubkey string) (*BunkerSigner, error) {
	sk, err := ParseSecretKey(clientSK)
	if err != nil {
		return nil, errors.New("bunker client key is damaged: run roster logout, then roster login --bunker again")
	}
	cpk, err := nostr.GetPublicKey(sk)
	if err != nil {
		return nil, errors.New("bunker client key is damaged: run roster logout, then roster login --bunker again")
	}
	ck, err := nip44.GenerateConversationKey(b.RemotePubkey, sk)
	if err != nil {
		return nil, fmt.Errorf("bunker conversation key: %w", err)
	}
	return &BunkerSigner{
		clientSK: sk, clientPK: cpk, remote: b.RemotePubkey, user: userPubkey,
		relays: slices.Clone(b.Relays), ck: ck, Timeout: DefaultBunkerTimeout,
	}, nil
}

// ConnectBunker performs NIP-46 "connect" (sending the URL's one-time secret)
// and "get_public_key", returning a signer for the user's key.
func ConnectBunker(ctx context.Context, clientSK string, b BunkerURL, onAuthURL func(string)) (*BunkerSigner, error) {
	s, err := NewBunkerSigner(clientSK, b, "")
	if err != nil {
		return nil, err
	}
	s.OnAuthURL = onAuthURL
	params := []string{b.RemotePubkey}
	if b.Secret != "" {
		params = append(params, b.Secret)
	}
	res, err := s.rpc(ctx, "connect", params)
	if err != nil {
		return nil, err
	}
	// NIP-46: a bunker answers "ack", or echoes the secret it was given.
	if res != "ack" && (b.Secret == "" || res != b.Secret) {
		return nil, errors.New("bunker did not acknowledge the connection")
	}
	pk, err := s.rpc(ctx, "get_public_key", []string{})
	if err != nil {
		return nil, err
	}
	pk = strings.ToLower(strings.TrimSpace(pk))
	if !nostr.IsValidPublicKey(pk) {
		return nil, errors.New("bunker answered get_public_key with something that is not a 64-hex pubkey")
	}
	s.user = pk
	return s, nil
}

// ClientPubkey is the public half of the client key the bunker knows us by.
func (s *BunkerSigner) ClientPubkey() string { return s.clientPK }

func (s *BunkerSigner) Backend() string { return BackendBunker }

func (s *BunkerSigner) PublicKey(context.Context) (string, error) {
	if s.user == "" {
		return "", errors.New("bunker session has no user pubkey: run roster login --bunker again")
	}
	return s.user, nil
}

// SignEvent asks the bunker to sign evt and checks that what came back is evt,
// unchanged, signed by the user's key.
func (s *BunkerSigner) SignEvent(ctx context.Context, evt *nostr.Event) error {
	user, err := s.PublicKey(ctx)
	if err != nil {
		return err
	}
	evt.PubKey = user
	req := nostr.Event{PubKey: user, CreatedAt: evt.CreatedAt, Kind: evt.Kind, Tags: evt.Tags, Content: evt.Content}
	res, err := s.rpc(ctx, "sign_event", []string{req.String()})
	if err != nil {
		return err
	}
	var got nostr.Event
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		return errors.New("bunker answered sign_event with something that is not an event")
	}
	if err := sameUnsigned(&req, &got); err != nil {
		return err
	}
	if !got.CheckID() {
		return errors.New("bunker returned an event whose id does not match its content")
	}
	if ok, _ := got.CheckSignature(); !ok {
		return errors.New("bunker returned an event with an invalid signature")
	}
	evt.ID, evt.Sig = got.ID, got.Sig
	return nil
}

// sameUnsigned refuses a signed event that differs from the request in
// anything the signature covers: a bunker must sign what we asked, not more.
func sameUnsigned(want, got *nostr.Event) error {
	if got.PubKey != want.PubKey {
		return fmt.Errorf("bunker signed with %s, but the logged-in key is %s", got.PubKey, want.PubKey)
	}
	if got.Kind != want.Kind || got.CreatedAt != want.CreatedAt || got.Content != want.Content ||
		!slices.EqualFunc(got.Tags, want.Tags, func(a, b nostr.Tag) bool { return slices.Equal(a, b) }) {
		return errors.New("bunker returned a different event from the one roster asked it to sign")
	}
	return nil
}

// Encrypt asks the bunker to NIP-44-encrypt plaintext to recipient.
func (s *BunkerSigner) Encrypt(ctx context.Context, plaintext, recipient string) (string, error) {
	if !nostr.IsValidPublicKey(recipient) {
		return "", errors.New("nip44 encrypt: recipient is not a 64-hex pubkey")
	}
	return s.rpc(ctx, "nip44_encrypt", []string{recipient, plaintext})
}

// Decrypt asks the bunker to NIP-44-decrypt ciphertext from sender, with the
// nip44_decrypt method (go-nostr's keyer sends nip44_encrypt here).
func (s *BunkerSigner) Decrypt(ctx context.Context, ciphertext, sender string) (string, error) {
	if !nostr.IsValidPublicKey(sender) {
		return "", errors.New("nip44 decrypt: sender is not a 64-hex pubkey")
	}
	return s.rpc(ctx, "nip44_decrypt", []string{sender, ciphertext})
}

type bunkerRequest struct {
	ID     string   `json:"id"`
	Method string   `json:"method"`
	Params []string `json:"params"`
}

type bunkerResponse struct {
	ID     string `json:"id"`
	Result string `json:"result"`
	Error  string `json:"error"`
}

// rpc sends one NIP-46 request and waits for its answer. Errors name the
// method and relays, never the parameters (which may be plaintext).
func (s *BunkerSigner) rpc(ctx context.Context, method string, params []string) (string, error) {
	if _, ok := ctx.Deadline(); !ok {
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = DefaultBunkerTimeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	idb := make([]byte, 12)
	_, _ = rand.Read(idb)
	id := hex.EncodeToString(idb)
	body, err := json.Marshal(bunkerRequest{ID: id, Method: method, Params: params})
	if err != nil {
		return "", err
	}
	content, err := nip44.Encrypt(string(body), s.ck)
	if err != nil {
		return "", fmt.Errorf("bunker %s: encrypt request: %w", method, err)
	}
	req := nostr.Event{Kind: kindNostrConnect, CreatedAt: nostr.Now(), Tags: nostr.Tags{{"p", s.remote}}, Content: content}
	if err := req.Sign(s.clientSK); err != nil {
		return "", fmt.Errorf("bunker %s: sign request: %w", method, err)
	}

	answers := make(chan *nostr.Event, 8)
	relays, failures := s.listen(ctx, answers)
	if len(relays) == 0 {
		return "", unreachable("bunker %s: no bunker relay is reachable (%s)", method, strings.Join(failures, "; "))
	}
	published := 0
	for _, r := range relays {
		if err := r.Publish(ctx, req); err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", r.URL, err))
			continue
		}
		published++
	}
	if published == 0 {
		return "", unreachable("bunker %s: no relay accepted the request (%s)", method, strings.Join(failures, "; "))
	}
	for {
		select {
		case <-ctx.Done():
			return "", unreachable("bunker %s: no answer from the bunker before the timeout", method)
		case evt := <-answers:
			resp, ok := s.openAnswer(evt)
			if !ok || resp.ID != id {
				continue
			}
			if resp.Result == "auth_url" {
				if s.OnAuthURL != nil {
					s.OnAuthURL(resp.Error)
				}
				continue
			}
			if resp.Error != "" {
				return "", fmt.Errorf("bunker refused %s: %s", method, resp.Error)
			}
			return resp.Result, nil
		}
	}
}

// bunkerConnectTimeout bounds connecting to one bunker relay and its EOSE.
const bunkerConnectTimeout = 15 * time.Second

// listen connects to every bunker relay and subscribes for answers addressed
// to the client key, returning the relays whose subscription reached EOSE.
// Every connection closes when ctx ends (go-nostr's RelayConnect would keep
// it open on a background context, so the relays are built with NewRelay).
func (s *BunkerSigner) listen(ctx context.Context, answers chan<- *nostr.Event) ([]*nostr.Relay, []string) {
	type ready struct {
		relay *nostr.Relay
		err   error
		url   string
	}
	readies := make(chan ready, len(s.relays))
	for _, url := range s.relays {
		go func(url string) {
			r := nostr.NewRelay(ctx, url)
			go func() { <-ctx.Done(); _ = r.Close() }()
			cctx, cancel := context.WithTimeout(ctx, bunkerConnectTimeout)
			defer cancel()
			if err := r.Connect(cctx); err != nil {
				readies <- ready{err: err, url: url}
				return
			}
			sub, err := r.Subscribe(ctx, nostr.Filters{{
				Kinds:   []int{kindNostrConnect},
				Authors: []string{s.remote},
				Tags:    nostr.TagMap{"p": []string{s.clientPK}},
			}})
			if err != nil {
				readies <- ready{err: err, url: url}
				return
			}
			select {
			case <-sub.EndOfStoredEvents:
				readies <- ready{relay: r, url: url}
			case reason := <-sub.ClosedReason:
				readies <- ready{err: fmt.Errorf("closed: %s", reason), url: url}
				return
			case <-cctx.Done():
				readies <- ready{err: errors.New("no EOSE in time"), url: url}
				return
			}
			for {
				select {
				case evt, ok := <-sub.Events:
					if !ok {
						return
					}
					select {
					case answers <- evt:
					case <-ctx.Done():
						return
					}
				case <-ctx.Done():
					return
				}
			}
		}(url)
	}
	var relays []*nostr.Relay
	var failures []string
	for range s.relays {
		r := <-readies
		if r.err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", r.url, r.err))
			continue
		}
		relays = append(relays, r.relay)
	}
	return relays, failures
}

// openAnswer checks that evt is a NIP-46 answer from the bunker to us and
// decrypts it.
func (s *BunkerSigner) openAnswer(evt *nostr.Event) (bunkerResponse, bool) {
	if evt == nil || evt.Kind != kindNostrConnect || evt.PubKey != s.remote {
		return bunkerResponse{}, false
	}
	if ok, _ := evt.CheckSignature(); !ok {
		return bunkerResponse{}, false
	}
	plain, err := nip44.Decrypt(evt.Content, s.ck)
	if err != nil {
		return bunkerResponse{}, false
	}
	var resp bunkerResponse
	if err := json.Unmarshal([]byte(plain), &resp); err != nil {
		return bunkerResponse{}, false
	}
	return resp, true
}
