package ratebudget

func runChild() int { return 0 }
