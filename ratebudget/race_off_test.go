//go:build !race

package ratebudget

const raceDetector = false
