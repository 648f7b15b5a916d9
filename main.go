// Command orgctl administers an organization through its management API.
package main

import (
	"os"

	"github.com/orgctl/orgctl/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:]))
}
