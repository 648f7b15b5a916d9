// Package settings owns orgctl's configuration: the table of every setting
// (key, type, range, default, flag, environment variable), the config file
// (read, checked and edited in place, comments kept), profiles, the XDG
// directories, and the typed Config one run reads. No other package reads
// a setting by its key.
//
// It must not import cobra or any package of the command tree; the root
// hands it the global flags (BindFlags) and the budget families its
// commands call (LoadOptions.Families).
package settings
