package change

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roster-cli/roster/announce"
	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/preflight"
	"github.com/roster-cli/roster/settings"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// metadataFlags are repo edit's metadata-only flags: they replace fields of
// your own announcement and never travel with a membership change.
type metadataFlags struct {
	name, description          string
	web, clone, relays, hashes []string
}

// metadataFlagNames are the flags a metadata edit consists of.
var metadataFlagNames = []string{"name", "description", "web", "clone", "relays", "hashtag"}

const metadataHelp = `

Metadata of your own announcement, alone (never with a membership change):

  --name <name>               the repository's name (an alt tag that is ngit's
                              "git repository: <old name>" follows it)
  --description <text>        its description ("" clears it)
  --web <url>                 web pages (repeatable; replaces the list; "" clears)
  --clone <url>               your Git servers (repeatable; replaces the list)
  --relays <url>              your relays (repeatable; replaces the list)
  --hashtag <tag>             hashtags (repeatable; replaces them all; "" clears)

Every other tag keeps its bytes and place; the change is previewed,
rechecked, published and read back like a membership change.`

// addMetadataFlags adds the metadata flags, their help and their value
// completions (--relays the configured relays; none completes file names)
// to repo edit.
func addMetadataFlags(a *cmdutil.Factory, cmd *cobra.Command) *metadataFlags {
	m := &metadataFlags{}
	f := cmd.Flags()
	f.StringVar(&m.name, "name", "", "replace your announcement's name (metadata only)")
	f.StringVar(&m.description, "description", "", "replace its description (metadata only)")
	cmdutil.StringArrayVar(f, &m.web, "web", "replace its web URLs (repeatable; \"\" clears)")
	cmdutil.StringArrayVar(f, &m.clone, "clone", "replace your clone URLs (repeatable; \"\" clears)")
	cmdutil.StringArrayVar(f, &m.relays, "relays", "replace your relays (repeatable; \"\" clears)")
	cmdutil.StringArrayVar(f, &m.hashes, "hashtag", "replace its hashtags (repeatable; \"\" clears)")
	for _, n := range metadataFlagNames {
		if n != "relays" {
			_ = cmd.RegisterFlagCompletionFunc(n, cobra.NoFileCompletions)
		}
	}
	_ = cmd.RegisterFlagCompletionFunc("relays", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return cmdutil.RelayCompletions(a), cobra.ShellCompDirectiveNoFileComp
	})
	cmd.Long += metadataHelp
	cmd.Example += `
  roster repo edit --description "Makes widgets" --dry-run
  roster repo edit --web https://widget.example --hashtag go --hashtag nostr`
	return m
}

// given reports whether any metadata flag was given.
func (m *metadataFlags) given(cmd *cobra.Command) bool {
	for _, n := range metadataFlagNames {
		if cmd.Flags().Changed(n) {
			return true
		}
	}
	return false
}

// intent is the metadata edit as a preflight intent. Any other repo edit
// flag beside it (a membership change, a governance choice, --force) is a
// usage error: metadata is changed alone.
func (m *metadataFlags) intent(cmd *cobra.Command) (preflight.Intent, error) {
	var others []string
	// repo edit's own flags, not the shared ones (--json, --repo, ...).
	own, shared := cmd.LocalNonPersistentFlags(), cmdutil.SharedFlags()
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if own.Lookup(fl.Name) != nil && shared.Lookup(fl.Name) == nil && fl.Name != "dry-run" && fl.Name != "verbose" && !slices.Contains(metadataFlagNames, fl.Name) {
			others = append(others, "--"+fl.Name)
		}
	})
	if len(others) > 0 {
		return preflight.Intent{}, cmdutil.UsageErr("%s (given with %s)", preflight.MetadataAloneMessage, strings.Join(others, ", "))
	}
	e := &preflight.MetadataEdit{}
	changed := cmd.Flags().Changed
	if changed("name") {
		if strings.TrimSpace(m.name) == "" {
			return preflight.Intent{}, cmdutil.UsageErr("--name needs a name: a repository announcement always has one")
		}
		e.Name = &m.name
	}
	if changed("description") {
		e.Description = &m.description
	}
	list := func(flag string, values []string, check func(string) error) ([]string, bool, error) {
		if !changed(flag) {
			return nil, false, nil
		}
		out := []string{}
		for _, v := range values {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if check != nil {
				if err := check(v); err != nil {
					return nil, false, cmdutil.UsageErr("--%s: %v", flag, err)
				}
			}
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		return out, true, nil
	}
	noSpace := func(v string) error {
		if strings.ContainsAny(v, " \t\n") {
			return fmt.Errorf("%q contains a space", v)
		}
		return nil
	}
	var err error
	if e.Web, e.SetWeb, err = list("web", m.web, noSpace); err != nil {
		return preflight.Intent{}, err
	}
	if e.Clone, e.SetClone, err = list("clone", m.clone, noSpace); err != nil {
		return preflight.Intent{}, err
	}
	if e.SetClone {
		// Written as others fetch from it: scp-like → ssh://, a path → file://.
		if e.Clone, err = announce.CloneURLsToWrite(e.Clone, true); err != nil {
			return preflight.Intent{}, cmdutil.UsageErr("--clone: %v", err)
		}
	}
	if e.Relays, e.SetRelays, err = list("relays", m.relays, settings.CheckRelay); err != nil {
		return preflight.Intent{}, err
	}
	if e.Hashtags, e.SetHashtags, err = list("hashtag", m.hashes, noSpace); err != nil {
		return preflight.Intent{}, err
	}
	return preflight.Intent{Action: preflight.ActMetadata, Metadata: e}, nil
}
