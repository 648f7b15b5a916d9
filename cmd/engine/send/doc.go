// Package send sends built calls and finds the names in an input, for the
// engine and for a --from job alike. Both call it; it calls neither, so a
// job runs its rows without reaching back into the engine that started it.
//
//	Sender.Send      a call's reads and Merge, the request (every page with
//	                 --all), then its follow-ups, through one client
//	Find             the values of an input that name an object, each with a
//	                 stand-in id until a lookup finds the real one
//	Found.Refuse     the refusal to delete an object the org cannot do without
//	NameStore        where the name lookups' lists are kept between runs
package send
