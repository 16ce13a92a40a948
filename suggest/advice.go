package suggest

// Advice is one piece of guidance: what to do and, when a command does it,
// that command.
type Advice struct {
	What    Block
	Command *Command
}

// Words are what advice says: plain text, or a block naming people.
type Words interface{ string | Block }

func words[W Words](w W) Block {
	switch v := any(w).(type) {
	case Block:
		return v
	default:
		return Text(any(w).(string))
	}
}

// Do is advice carried out by cmd.
func Do[W Words](what W, cmd Command) Advice { return Advice{What: words(what), Command: &cmd} }

// Note is advice without a command.
func Note[W Words](what W) Advice { return Advice{What: words(what)} }

// Guidance is advice that shares one command: several people or facts
// that the same command takes care of, each said once.
type Guidance struct {
	Whats   []Block
	Command *Command
}

// GuidanceSeparator joins the whats of one Guidance in its one-line form.
const GuidanceSeparator = "; also "

// Group names each command once: identical advice is kept once, and advice
// whose command equals earlier advice's joins that advice, in first-seen
// order. Advice without a command stays as it is, in order.
func Group(advice []Advice) []Guidance {
	var out []Guidance
	seenWhat := map[string]bool{}
	for _, a := range advice {
		key := a.What.String()
		if a.Command != nil {
			key += "\x00" + a.Command.String()
		}
		if seenWhat[key] {
			continue
		}
		seenWhat[key] = true
		if a.Command != nil {
			joined := false
			for i := range out {
				if out[i].Command != nil && out[i].Command.Equal(*a.Command) {
					out[i].Whats = append(out[i].Whats, a.What)
					joined = true
					break
				}
			}
			if joined {
				continue
			}
		}
		out = append(out, Guidance{Whats: []Block{a.What}, Command: a.Command})
	}
	return out
}

// Text is the one-line form: "<what>; also <what> with: <command>", or the
// what alone when there is no command.
func (g Guidance) Text(sel Selectors) string {
	what := Join(g.Whats, GuidanceSeparator).Render(Selectors{Name: sel.Name})
	if g.Command == nil {
		return what
	}
	return what + " with: " + sel.Render(*g.Command)
}

// Texts renders every guidance in its one-line form.
func Texts(gs []Guidance, sel Selectors) []string {
	out := make([]string, 0, len(gs))
	for _, g := range gs {
		out = append(out, g.Text(sel))
	}
	return out
}
