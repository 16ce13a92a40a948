package signer

import (
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// ncryptsecKeySecurityByte decodes byte 42 of a NIP-49 payload.
func ncryptsecKeySecurityByte(t *testing.T, nc string) byte {
	t.Helper()
	_, bits5, err := bech32.DecodeNoLimit(nc)
	if err != nil {
		t.Fatal(err)
	}
	data, err := bech32.ConvertBits(bits5, 5, 8, false)
	if err != nil || len(data) != 91 {
		t.Fatalf("payload %d bytes, %v", len(data), err)
	}
	return data[42]
}

// passphrases returns a PassphraseFunc answering with each given string in turn.
func passphrases(t *testing.T, answers ...string) PassphraseFunc {
	t.Helper()
	return func(string) (string, error) {
		if len(answers) == 0 {
			t.Fatal("asked for more passphrases than the test provided")
		}
		p := answers[0]
		answers = answers[1:]
		return p, nil
	}
}
