//go:build race

package main

// raceBuild: the orgctl the scripts run is built with the race detector
// when the tests are.
const raceBuild = true
