package testkeys

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/nbd-wtf/go-nostr"
)

var sybilCache sync.Map // "identifier/n" -> []*nostr.Event

// Sybils returns n valid kind 30617 announcements of identifier, each by
// its own deterministic key (Named("sybil-", i)), each naming only its
// author: same-identifier spam that joins no repository. Signing thousands
// of events takes seconds, so they are signed once per test binary and
// shared; callers must not change them.
func Sybils(t testing.TB, identifier string, n int) []*nostr.Event {
	t.Helper()
	key := fmt.Sprintf("%s/%d", identifier, n)
	if v, ok := sybilCache.Load(key); ok {
		return v.([]*nostr.Event)
	}
	out := make([]*nostr.Event, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				out[i], errs[i] = sybil(Named("sybil-", fmt.Sprint(i)), identifier, i)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	v, _ := sybilCache.LoadOrStore(key, out)
	return v.([]*nostr.Event)
}

// sybil signs the i-th spam announcement by sk. go-nostr's GetPublicKey and
// Event.Sign multiply the curve's base point four times per event (the
// public key for the tags, again inside Sign, again inside btcec's
// schnorr.Sign, and the nonce point); under -race each multiplication is
// milliseconds, and 10,000 sybils took a minute of CPU. This is BIP-340
// signing with the two multiplications it needs (the public key and the
// nonce point); TestSybilsAreValidlySigned checks the signatures with
// go-nostr's own verifier.
func sybil(sk, identifier string, i int) (*nostr.Event, error) {
	skb, err := hex.DecodeString(sk)
	if err != nil || len(skb) != 32 {
		return nil, fmt.Errorf("sybil key %q: %v", sk, err)
	}
	var d btcec.ModNScalar
	if overflow := d.SetByteSlice(skb); overflow || d.IsZero() {
		return nil, errors.New("sybil key out of range")
	}
	var p btcec.JacobianPoint
	btcec.ScalarBaseMultNonConst(&d, &p)
	p.ToAffine()
	if p.Y.IsOdd() {
		d.Negate()
	}
	pkb := p.X.Bytes()
	pk := hex.EncodeToString(pkb[:])
	evt := &nostr.Event{PubKey: pk, Kind: 30617, CreatedAt: nostr.Timestamp(1_700_000_000 + i), Tags: nostr.Tags{
		{"d", identifier}, {"name", fmt.Sprintf("spam %d", i)},
		{"M", pk}, {"m", pk}, {"maintainers", pk},
	}}
	if err := (bip340Key{d: d, skb: skb, pkb: *pkb}).Sign(evt); err != nil {
		return nil, err
	}
	return evt, nil
}

// bip340Key signs with a secret scalar d whose public point has an even Y
// (d negated if not) and x-only public key pkb.
type bip340Key struct {
	d   btcec.ModNScalar
	skb []byte
	pkb [32]byte
}

// Sign sets evt's id and BIP-340 signature; evt.PubKey must be k's key.
func (k bip340Key) Sign(evt *nostr.Event) error {
	skb, pkb, d := k.skb, k.pkb, k.d
	h := sha256.Sum256(evt.Serialize())
	// A deterministic nonce (test keys sign public spam; BIP-340's nonce
	// derivation is for secrecy, which these keys do not need).
	var n btcec.ModNScalar
	nonce := sha256.Sum256(append(append([]byte("roster-testkeys-sybil-nonce"), skb...), h[:]...))
	n.SetBytes(&nonce)
	if n.IsZero() {
		return errors.New("sybil nonce is zero")
	}
	var r btcec.JacobianPoint
	btcec.ScalarBaseMultNonConst(&n, &r)
	r.ToAffine()
	if r.Y.IsOdd() {
		n.Negate()
	}
	rx := r.X.Bytes()
	challenge := taggedHash("BIP0340/challenge", rx[:], pkb[:], h[:])
	var e btcec.ModNScalar
	e.SetBytes(&challenge)
	s := new(btcec.ModNScalar).Mul2(&e, &d).Add(&n)
	sb := s.Bytes()
	evt.ID = hex.EncodeToString(h[:])
	evt.Sig = hex.EncodeToString(append(rx[:], sb[:]...))
	return nil
}

func taggedHash(tag string, parts ...[]byte) [32]byte {
	th := sha256.Sum256([]byte(tag))
	h := sha256.New()
	h.Write(th[:])
	h.Write(th[:])
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
