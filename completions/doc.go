// Package completions owns what makes shell completion of orgctl fast and
// safe: the per-profile cache of listed objects, the policy that decides
// when a completion may fetch (cache fresh: never; otherwise one fetch under
// a one-second deadline, falling back to the stale cache), the reduction of
// an API list to ids and labels, and the generation of the shell scripts.
//
// It imports cobra only for the script generators. It must not import cmd,
// client, output or ratebudget: it knows no API paths, tokens or HTTP (the
// leaves output/atomicfile, which writes its cache files, and
// output/safetext, which makes labels safe to show, are the exceptions). The
// caller (cmd) hands it a Fetch that sends one request without retries and
// without waiting for the rate budget (a ledger opened with MaxWait 0
// reserves points only when there is room now), so a completion never makes
// the shell wait on the budget or a slow network.
package completions
