package sections

// Suggestion purposes of the workspace pipeline (pipeline.Suggestion.Purpose).
const (
	// SuggestShow reads the workspace.
	SuggestShow = "show"
	// SuggestList reads the workspace to list its sections, channels and readers.
	SuggestList = "list"
	// SuggestImport imports the owner's legacy blob, once; RunBy is the
	// owner, "" when that is whoever ran roster.
	SuggestImport = "import"
	// SuggestRetryImport retries an import the relay did not answer.
	SuggestRetryImport = "retry-import"
	// SuggestGrantRead grants the reader read access, run by RunBy (the owner).
	SuggestGrantRead = "grant-read"
	// SuggestGrantRole grants the role an action needs, run by RunBy (the owner).
	SuggestGrantRole = "grant-role"
)
