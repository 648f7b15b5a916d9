package clitest

// Prompter is a cli.Prompter a test sets on the Factory: it records every
// question, whatever its kind, and answers each y/N with Yes and each text
// or secret with Text, without a terminal.
type Prompter struct {
	Yes       bool
	Text      string
	Questions []string
}

func (p *Prompter) Confirm(q string, _ bool) (bool, error) {
	p.Questions = append(p.Questions, q)
	return p.Yes, nil
}

func (p *Prompter) Input(q string) (string, error) {
	p.Questions = append(p.Questions, q)
	return p.Text, nil
}

func (p *Prompter) Password(q string) (string, error) {
	p.Questions = append(p.Questions, q)
	return p.Text, nil
}
