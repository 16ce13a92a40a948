package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print roster's version",
		Example: `  roster version
  roster version --json   # {"schema": "roster.version/v1", "version": "..."}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := "devel"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v = bi.Main.Version
			}
			if a.opts.JSON {
				return writeJSON(a, struct {
					Schema  string `json:"schema"`
					Version string `json:"version"`
				}{"roster.version/v1", v})
			}
			fmt.Fprintf(a.io.Out, "roster %s\n", v)
			return nil
		},
	}
}
