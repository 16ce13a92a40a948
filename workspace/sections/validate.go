package sections

// Static validation of each command body: every rule that needs no relay
// state. The relay adds the stateful rules (revision zero, current epoch,
// active sections, grant count) in devrelay/swrelay.

// checkHeader checks what every command body starts with: the content
// version and a UUID action_id.
func checkHeader(version int, actionID string) error {
	if err := checkVersion(version); err != nil {
		return err
	}
	return checkID("action_id", actionID)
}

func checkVersion(v int) error {
	if v != Version {
		return ruleErr("version", "content version %d is not %d", v, Version)
	}
	return nil
}

func checkEnvelope(what, env string) error {
	if env == "" {
		return ruleErr("envelope-empty", "%s is empty", what)
	}
	if len(env) > MaxKeyEnvelopeBytes {
		return ruleErr("envelope-size", "%s is %d bytes, limit %d", what, len(env), MaxKeyEnvelopeBytes)
	}
	return nil
}

func checkMetadata(what string, ct string) error {
	if ct == "" {
		return ruleErr("metadata-empty", "%s is empty", what)
	}
	if len(ct) > MaxEncryptedMetadataBytes {
		return ruleErr("metadata-size", "%s is %d bytes, limit %d", what, len(ct), MaxEncryptedMetadataBytes)
	}
	return nil
}

// checkLabelAndIcon checks one section's ciphertexts; the icon is optional.
func checkLabelAndIcon(label string, icon *string) error {
	if err := checkMetadata("encrypted_label", label); err != nil {
		return err
	}
	if icon == nil {
		return nil
	}
	return checkMetadata("encrypted_icon", *icon)
}

// checkRanks requires ranks to be exactly a permutation of 0..n-1.
func checkRanks(ranks []int) error {
	seen := make([]bool, len(ranks))
	for _, r := range ranks {
		if r < 0 || r >= len(ranks) || seen[r] {
			return ruleErr("ranks-permutation", "ranks must be exactly a permutation of 0..%d", len(ranks)-1)
		}
		seen[r] = true
	}
	return nil
}

// checkSectionIDs requires valid, non-nil, unique ids and at most MaxSections.
func checkSectionIDs(ids []string) (map[string]bool, error) {
	if len(ids) > MaxSections {
		return nil, ruleErr("sections-limit", "%d sections, limit %d", len(ids), MaxSections)
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		if err := checkID("section id", id); err != nil {
			return nil, err
		}
		if set[id] {
			return nil, ruleErr("section-unique", "section id %s appears twice", id)
		}
		set[id] = true
	}
	return set, nil
}

// checkAssignments requires unique channels, at most MaxAssignments, and
// destinations among sections.
func checkAssignments(as []Assignment, sections map[string]bool) error {
	if len(as) > MaxAssignments {
		return ruleErr("assignments-limit", "%d assignments, limit %d", len(as), MaxAssignments)
	}
	channels := make(map[string]bool, len(as))
	for _, a := range as {
		if err := checkID("channel id", a.ChannelID); err != nil {
			return err
		}
		if channels[a.ChannelID] {
			return ruleErr("channel-unique", "channel %s is assigned twice", a.ChannelID)
		}
		channels[a.ChannelID] = true
		if !sections[a.SectionID] {
			return ruleErr("assignment-destination", "channel %s is assigned to %q, which is not an imported section", a.ChannelID, a.SectionID)
		}
	}
	return nil
}

// Validate checks a 9050 import's content.
func (c *Import) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if err := checkHex64("source_event_id", c.SourceEventID); err != nil {
		return err
	}
	if err := checkHex64("source_hash", c.SourceHash); err != nil {
		return err
	}
	if c.KeyEpoch != 1 {
		return ruleErr("import-key-epoch", "import key_epoch is %d, must be 1", c.KeyEpoch)
	}
	if err := checkEnvelope("owner_key_envelope", c.OwnerKeyEnvelope); err != nil {
		return err
	}
	ids := make([]string, len(c.Sections))
	ranks := make([]int, len(c.Sections))
	for i, s := range c.Sections {
		ids[i], ranks[i] = s.ID, s.Rank
		if err := checkLabelAndIcon(s.EncryptedLabel, s.EncryptedIcon); err != nil {
			return err
		}
	}
	set, err := checkSectionIDs(ids)
	if err != nil {
		return err
	}
	if err := checkRanks(ranks); err != nil {
		return err
	}
	return checkAssignments(c.Assignments, set)
}

// Validate checks a 9051 grant's content.
func (c *Grant) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if err := checkHex64("actor_pubkey", c.ActorPubkey); err != nil {
		return err
	}
	if !ValidGrantRole(c.Role) {
		return ruleErr("role", "role %q is not viewer, mover or manager", c.Role)
	}
	if c.KeyEpoch < 1 {
		return ruleErr("key-epoch", "key_epoch %d < 1", c.KeyEpoch)
	}
	return checkEnvelope("key_envelope", c.KeyEnvelope)
}

// Validate checks a 9052 revoke's content.
func (c *Revoke) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if err := checkHex64("actor_pubkey", c.ActorPubkey); err != nil {
		return err
	}
	if c.NewKeyEpoch < 2 {
		return ruleErr("key-epoch", "new_key_epoch %d < 2: a revoke always advances from an existing epoch", c.NewKeyEpoch)
	}
	ids := make([]string, len(c.Sections))
	for i, s := range c.Sections {
		ids[i] = s.SectionID
		if err := checkLabelAndIcon(s.EncryptedLabel, s.EncryptedIcon); err != nil {
			return err
		}
	}
	if _, err := checkSectionIDs(ids); err != nil {
		return err
	}
	if len(c.Envelopes) == 0 {
		return ruleErr("envelopes-owner", "revoke installs no envelopes; the owner needs one")
	}
	if len(c.Envelopes) > MaxGrants+1 {
		return ruleErr("grants-limit", "%d envelopes, limit %d grantees plus the owner", len(c.Envelopes), MaxGrants)
	}
	readers := make(map[string]bool, len(c.Envelopes))
	for _, e := range c.Envelopes {
		if err := checkHex64("reader_pubkey", e.ReaderPubkey); err != nil {
			return err
		}
		if readers[e.ReaderPubkey] {
			return ruleErr("envelope-unique", "reader %s has two envelopes", e.ReaderPubkey)
		}
		readers[e.ReaderPubkey] = true
		if e.ReaderPubkey == c.ActorPubkey {
			return ruleErr("revoked-envelope", "the revoked reader %s must not receive a new envelope", e.ReaderPubkey)
		}
		if err := checkEnvelope("key_envelope", e.KeyEnvelope); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks a 9053 move's content.
func (c *Move) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if err := checkID("channel_id", c.ChannelID); err != nil {
		return err
	}
	if c.SectionID == nil {
		return nil // unassign
	}
	return checkID("section_id", *c.SectionID)
}

// Validate checks a 9054 add or rename.
func (c *ManageSection) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if c.Op != OpAdd && c.Op != OpRename {
		return ruleErr("manage-op", "op %q does not carry a section label", c.Op)
	}
	if c.KeyEpoch < 1 {
		return ruleErr("key-epoch", "key_epoch %d < 1", c.KeyEpoch)
	}
	if err := checkID("section_id", c.SectionID); err != nil {
		return err
	}
	return checkLabelAndIcon(c.EncryptedLabel, c.EncryptedIcon)
}

// Validate checks a 9054 reorder.
func (c *ManageReorder) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if c.Op != OpReorder {
		return ruleErr("manage-op", "op %q is not reorder", c.Op)
	}
	_, err := checkSectionIDs(c.SectionIDs)
	return err
}

// Validate checks a 9054 remove.
func (c *ManageRemove) Validate() error {
	if err := checkHeader(c.Version, c.ActionID); err != nil {
		return err
	}
	if c.Op != OpRemove {
		return ruleErr("manage-op", "op %q is not remove", c.Op)
	}
	return checkID("section_id", c.SectionID)
}
