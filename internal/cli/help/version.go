package help

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/roster-cli/roster/internal/cli/cmdutil"
	"github.com/roster-cli/roster/report"
	"github.com/spf13/cobra"
)

// versionSchema is `roster version --json` (docs/json.md).
const versionSchema = "roster.version/v2"

// VersionJSON is roster.version/v2 (report.Version).
type VersionJSON = report.Version

// BuildVersion reads bi (ok is ReadBuildInfo's second result).
func BuildVersion(bi *debug.BuildInfo, ok bool) VersionJSON {
	v := VersionJSON{Schema: versionSchema, Version: "devel"}
	if !ok || bi == nil {
		return v
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v.Version = bi.Main.Version
	}
	v.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev := s.Value
			v.Commit = &rev
		case "vcs.modified":
			v.Dirty = s.Value == "true"
		}
	}
	return v
}

// CurrentVersion is this binary's version.
func CurrentVersion() VersionJSON { return BuildVersion(debug.ReadBuildInfo()) }

// PrintVersion is the human form of `roster version` and `roster --version`:
// the first line stays "roster <version>".
func PrintVersion(w io.Writer, v VersionJSON) {
	fmt.Fprintf(w, "roster %s\n", v.Version)
	if v.Commit != nil {
		dirty := ""
		if v.Dirty {
			dirty = " (with uncommitted changes)"
		}
		fmt.Fprintf(w, "commit %s%s\n", *v.Commit, dirty)
	}
	if v.Go != "" {
		fmt.Fprintf(w, "built with %s\n", v.Go)
	}
}

func NewVersionCmd(a *cmdutil.Factory) *cobra.Command { return NewCmdVersion(a, nil) }

// VersionOptions are `roster version`: only the output flags.
type VersionOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdVersion builds roster version; runF, when given, runs instead of
// printing with the parsed options (tests).
func NewCmdVersion(a *cmdutil.Factory, runF func(context.Context, *VersionOptions) error) *cobra.Command {
	return cmdutil.AddFlags(&cobra.Command{
		Use:   "version",
		Short: "Print roster's version, commit and Go version",
		Long: `Print the version the Go toolchain recorded in this binary: the module
version (go install ...@v1.2.3), the Git commit and whether the checkout had
uncommitted changes (builds from a checkout), and the Go version. The same
as roster --version.`,
		Example: `  roster version
  roster --version
  roster version --json   # {"schema": "roster.version/v2", "version": "...", "commit": ..., "dirty": false, "go": "go1.26.0"}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), &VersionOptions{Factory: a})
			}
			v := CurrentVersion()
			if a.Opts.JSON {
				return cmdutil.WriteJSON(a, v)
			}
			PrintVersion(a.Io.Out, v)
			return nil
		},
	}, &a.Opts, cmdutil.OutputFlags)
}
