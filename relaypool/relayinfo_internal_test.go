package relaypool

import "testing"

func TestParseRelayInfoToleratesOddFieldsButNotGarbage(t *testing.T) {
	self := "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
	body := `{"name":"x","self":"` + self + `","supported_nips":[1,"42","x"],"limitation":{"auth_required":true,"max_limit":"lots"},"version":7}`
	info, err := parseRelayInfo("wss://r.example", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if info.Self != "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789" {
		t.Errorf("self %q, want it lowercased", info.Self)
	}
	if len(info.SupportedNIPs) != 2 || info.SupportedNIPs[1] != 42 || info.Limitation == nil || !info.Limitation.AuthRequired || info.Name != "x" {
		t.Errorf("info %+v", info)
	}
	if info, _ := parseRelayInfo("wss://r.example", []byte(`{"self":"not-hex"}`)); info.Self != "" {
		t.Errorf("a non-hex self must be dropped, got %q", info.Self)
	}
	if _, err := parseRelayInfo("wss://r.example", []byte(`<html>`)); err == nil {
		t.Error("an HTML page is not relay information")
	}
}

func FuzzParseRelayInfo(f *testing.F) {
	f.Add([]byte(`{"self":"00","limitation":{"auth_required":true}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		info, err := parseRelayInfo("wss://r.example", body)
		if err == nil && info.Self != "" && len(info.Self) != 64 {
			t.Fatalf("self %q", info.Self)
		}
	})
}
