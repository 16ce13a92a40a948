package sections

// Kinds, from the spec's kind table.
const (
	KindImport     = 9050
	KindGrant      = 9051
	KindRevoke     = 9052
	KindMove       = 9053
	KindManage     = 9054
	KindProjection = 30623
	// KindLegacy is the NIP-78 app-data event holding the legacy whole-store
	// blob under d=channel-sections.
	KindLegacy = 30078
	LegacyD    = "channel-sections"
)

// CommandKinds are the client-submitted kinds a relay authority ingests.
var CommandKinds = []int{KindImport, KindGrant, KindRevoke, KindMove, KindManage}

// Version is the only content version this package reads or writes.
const Version = 1

// Limits, from the spec's import requirements and the fixture's "limits".
const (
	MaxSections               = 100
	MaxAssignments            = 1000
	MaxGrants                 = 256
	MaxEncryptedMetadataBytes = 65535
	MaxKeyEnvelopeBytes       = 4096
)

// Role is a grantee's durable role; the vocabulary is frozen by the spec.
type Role string

const (
	RoleOwner   Role = "owner" // implicit, never granted
	RoleViewer  Role = "viewer"
	RoleMover   Role = "mover"
	RoleManager Role = "manager"
	// RoleReader is an authorized reader whose role the projection does not
	// say (no role tag): it may read; for anything else the relay decides.
	RoleReader Role = "reader"
)

// GrantableRoles is the durable grant vocabulary (viewer|mover|manager).
var GrantableRoles = []Role{RoleViewer, RoleMover, RoleManager}

// ValidGrantRole reports whether r may appear in a 9051 grant.
func ValidGrantRole(r Role) bool {
	return r == RoleViewer || r == RoleMover || r == RoleManager
}

// Action is one capability in the role matrix.
type Action string

const (
	ActionRead     Action = "read"
	ActionGrant    Action = "grant"
	ActionRevoke   Action = "revoke"
	ActionMove     Action = "move"
	ActionManage   Action = "manage"
	ActionImportV1 Action = "import_v1"
)

// roleMatrix is the spec's "Coordinate and authority" list: owner does
// everything; viewer reads; mover reads and moves; manager also manages.
var roleMatrix = map[Role][]Action{
	RoleOwner:   {ActionRead, ActionGrant, ActionRevoke, ActionMove, ActionManage, ActionImportV1},
	RoleViewer:  {ActionRead},
	RoleMover:   {ActionRead, ActionMove},
	RoleManager: {ActionRead, ActionMove, ActionManage},
}

// readerActions is what an authorized reader of unknown role surely may do.
var readerActions = []Action{ActionRead}

// RoleMatrix returns a copy of the role matrix.
func RoleMatrix() map[Role][]Action {
	out := make(map[Role][]Action, len(roleMatrix))
	for r, a := range roleMatrix {
		out[r] = append([]Action(nil), a...)
	}
	return out
}

// Allowed reports whether role may perform action.
func Allowed(role Role, action Action) bool {
	actions := roleMatrix[role]
	if role == RoleReader {
		actions = readerActions
	}
	for _, a := range actions {
		if a == action {
			return true
		}
	}
	return false
}

// ActionForKind maps a command kind to the capability it needs.
func ActionForKind(kind int) (Action, bool) {
	switch kind {
	case KindImport:
		return ActionImportV1, true
	case KindGrant:
		return ActionGrant, true
	case KindRevoke:
		return ActionRevoke, true
	case KindMove:
		return ActionMove, true
	case KindManage:
		return ActionManage, true
	}
	return "", false
}
