// Package commands is roster's command list: every command group under the
// root, the one place the nouns are assembled. main runs it; a noun's
// end-to-end tests run a tree of that noun's groups alone, so they build
// without the other nouns.
package commands

import (
	"reflect"

	"github.com/roster-cli/roster/internal/cli/account"
	"github.com/roster-cli/roster/internal/cli/cache"
	"github.com/roster-cli/roster/internal/cli/dev"
	"github.com/roster-cli/roster/internal/cli/group"
	"github.com/roster-cli/roster/internal/cli/help"
	"github.com/roster-cli/roster/internal/cli/hooks"
	"github.com/roster-cli/roster/internal/cli/project"
	"github.com/roster-cli/roster/internal/cli/repo/tree"
	"github.com/roster-cli/roster/internal/cli/root"
	"github.com/roster-cli/roster/internal/cli/workspace"
)

// All is the whole command tree.
var All = root.Tree{
	"version":   {New: help.NewVersionCmd, JSONDocs: docs("version", help.VersionJSON{})},
	"login":     {New: account.NewLoginCmd},
	"logout":    {New: account.NewLogoutCmd},
	"whoami":    {New: account.NewWhoamiCmd, JSONDocs: docs("whoami", account.WhoamiResult{})},
	"cache":     {New: cache.NewCacheCmd, JSONDocs: docs("cache info", cache.CacheInfoJSON{})},
	"pending":   {New: newPending},
	"repo":      {New: tree.New, JSONDocs: tree.JSONDocs},
	"project":   {New: project.NewProjectCmd},
	"group":     {New: group.NewGroupCmd},
	"dev":       {New: dev.NewDevCmd},
	"workspace": {New: workspace.NewWorkspaceCmd},
	"hooks":     {New: hooks.NewHooksCmd},
}

// docs is the JSONDocs of one command whose object is of v's type.
func docs(path string, v any) map[string]reflect.Type {
	return map[string]reflect.Type{path: reflect.TypeOf(v)}
}
