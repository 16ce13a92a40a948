// Package change holds the membership changes of a repository (repo init,
// edit, accept, leave, follow-lead): flags, one call into membership, and
// the rendering of its preview, refusal or outcome.
package change
