package devrelay

import (
	"encoding/json"
	"net/http"

	"github.com/nbd-wtf/go-nostr/nip11"
)

var nip11Limitation = nip11.RelayLimitationDocument{AuthRequired: true}

// serveNIP11 writes khatru's information document plus `self`, the relay's
// own pubkey, which go-nostr's nip11 type lacks.
func (r *Relay) serveNIP11(w http.ResponseWriter, _ *http.Request) {
	raw, err := json.Marshal(r.kr.Info)
	doc := map[string]any{}
	if err == nil {
		err = json.Unmarshal(raw, &doc)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	doc["self"] = r.self
	w.Header().Set("Content-Type", "application/nostr+json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_ = json.NewEncoder(w).Encode(doc)
}
