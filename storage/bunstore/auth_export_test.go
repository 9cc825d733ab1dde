package bunstore

import "github.com/uptrace/bun"

// ListenerPID returns the backend pid of db's listening connection, or 0.
func ListenerPID(db *bun.DB) int {
	listenersMu.Lock()
	defer listenersMu.Unlock()
	if l := listeners[db.DB]; l != nil {
		return int(l.pid.Load())
	}
	return 0
}

// ListenerRunning reports whether db has a credential feed listener.
func ListenerRunning(db *bun.DB) bool {
	listenersMu.Lock()
	defer listenersMu.Unlock()
	return listeners[db.DB] != nil
}
