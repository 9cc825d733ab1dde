package promotype

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// ClonePtr returns a pointer to a copy of *p, or nil.
func ClonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
