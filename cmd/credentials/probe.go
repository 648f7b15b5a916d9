package credentials

import (
	"errors"
)

// probeProfile is an item name no login uses (profiles cannot start with
// '.'), so reading it touches the keyring without reading a token.
const probeProfile = ".orgctl-probe"

// Reachable reports whether the keyring answers: a session bus exists and
// a read completes within the timeout. A missing item is an answer.
func (k Keyring) Reachable() error {
	_, err := k.Get(probeProfile)
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
