package script

// Key names one piece of per-session state of type T: a module's handles, the interned
// addresses, whether the session is a REPL. The value lives on the Session, so it is
// created with the session and dropped with it; no package-level map keyed by *Session
// outlives a closed session. Declare keys as package-level values of NewKey: a key holds
// no state itself.
type Key[T any] struct {
	id *keyID
}

// keyID gives every key a distinct identity (a pointer to a non-zero-size value).
type keyID struct{ name string }

// NewKey returns a new key; name shows in panics only.
func NewKey[T any](name string) Key[T] { return Key[T]{id: &keyID{name: name}} }

// Get returns the value s holds under k, and whether it holds one.
func (k Key[T]) Get(s *Session) (T, bool) {
	s.stateMu.Lock()
	v, ok := s.state[k.id]
	s.stateMu.Unlock()
	if !ok {
		var zero T
		return zero, false
	}
	return v.(T), true
}

// Set stores v in s under k.
func (k Key[T]) Set(s *Session, v T) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.state == nil {
		s.state = map[*keyID]any{}
	}
	s.state[k.id] = v
}

// Delete drops what s holds under k.
func (k Key[T]) Delete(s *Session) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	delete(s.state, k.id)
}

// GetOrInit returns the value s holds under k, first storing what init returns when it
// holds none. Call it on the session goroutine, which alone creates state lazily, so init
// runs at most once per session.
func (k Key[T]) GetOrInit(s *Session, init func() T) T {
	if v, ok := k.Get(s); ok {
		return v
	}
	v := init()
	k.Set(s, v)
	return v
}
