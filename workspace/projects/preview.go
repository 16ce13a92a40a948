// What an owner write would act on, read without signing anything: the
// basis of the consequence previews of `project delete` and `project update
// --home-channel`.

package projects

import "context"

// PreviewIdentity refuses what Update or Delete (verb) would refuse before
// signing (someone other than the owner, a deleted project, an unanswered
// relay, an identity the relay does not serve) and returns the live Project
// State the write would be built on. Nothing is signed or published.
func PreviewIdentity(ctx context.Context, in IdentityInput, verb string) (*State, error) {
	if err := in.notOwner(verb); err != nil {
		return nil, err
	}
	st, _, err := in.currentIdentity(ctx, verb)
	return st, err
}
