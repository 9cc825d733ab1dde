package memory

// accessData holds OAuth tokens.
type accessData struct{}

func newAccessData() accessData { return accessData{} }
