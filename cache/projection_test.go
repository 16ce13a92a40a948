package cache

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestProjectionStoresTheCallersChoiceAndRefusesForgeries(t *testing.T) {
	c, _ := openTemp(t)
	if got, err := c.Projection("k"); err != nil || got != nil {
		t.Fatalf("absent: %v %v", got, err)
	}
	first := signed(t, aliceSK, 30623, 200, "rev 1")
	second := signed(t, aliceSK, 30623, 100, "rev 2") // the caller's revision rule, not created_at, decides
	for _, e := range []*nostr.Event{first, second} {
		if err := c.PutProjection("k", e); err != nil {
			t.Fatal(err)
		}
		got, err := c.Projection("k")
		if err != nil || got == nil || got.ID != e.ID || got.Content != e.Content {
			t.Fatalf("after storing %s: got %+v %v", e.ID, got, err)
		}
	}
	other, err := c.Projection("other-key")
	if err != nil || other != nil {
		t.Fatalf("keys are separate: %v %v", other, err)
	}
	forged := signed(t, aliceSK, 30623, 300, "rev 3")
	forged.Content = "forged"
	if err := c.PutProjection("k", forged); err == nil {
		t.Fatal("a forged projection was accepted")
	}
	if got, _ := c.Projection("k"); got.ID != second.ID {
		t.Fatalf("a refused put changed the stored projection to %s", got.ID)
	}
	if err := c.PutProjection("", first); err == nil {
		t.Fatal("an empty key was accepted")
	}
}
