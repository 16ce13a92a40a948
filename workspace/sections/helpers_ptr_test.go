package sections

func ptr(s string) *string { return &s }
