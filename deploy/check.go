package deploy

import (
	"slices"
)

// The preconditions of the steps. A step re-checks its own before it
// sends anything, against the resource as the run knows it (the plan's
// read, the last wait's, and what the steps since then changed): an
// update finds its field as the plan expected (From: it sends) or as it
// wants (To: already done, nothing sent), and anything else is a
// *StalePlanError; a create finds no live resource of its name (it
// creates) or one (already done), and several are a *DuplicateNameError;
// a delete finds its resource (it deletes) or not (already done). A
// status change only waits, whatever status it finds, unless the
// resource is gone.

// findFor returns the resource a change is about: a create's or
// update's, the live one of its kind, service and name (and, once the
// plan knew it, id); a delete's, the one of its id; nil when there is
// none.
func (w *world) findFor(ch *Change) (*entry, error) {
	if ch.Action == Delete {
		return w.byID(ch.Kind, ch.ID), nil
	}
	e, err := w.one(ch.Kind, ch.Service, ch.Name)
	if e != nil && ch.Action == Update && ch.ID != "" && e.id != ch.ID {
		return nil, nil // the resource the plan saw is gone; another has its name
	}
	return e, err
}

// precondition says whether ch's step is to act on e, the resource findFor
// returned, or finds it done already; a *StalePlanError when the resource
// is not as the plan expected.
func precondition(ch *Change, e *entry) (act bool, err error) {
	switch {
	case ch.Action == Create:
		return e == nil, nil
	case ch.Action == Delete:
		return e != nil, nil
	case e == nil:
		return false, &StalePlanError{Kind: ch.Kind, Name: ch.Name, ID: ch.ID, Field: ch.Field, Expected: ch.From}
	case e.planned():
		return true, nil
	case e.values().same(ch.Field, ch.To):
		return false, nil
	case ch.Field == FieldStatus, e.values().same(ch.Field, ch.From):
		return true, nil
	}
	return false, &StalePlanError{Kind: ch.Kind, Name: ch.Name, ID: e.id, Field: ch.Field, Expected: ch.From.only(ch.Field), Found: e.values().only(ch.Field)}
}

// check is the test of a saved plan against w, a fresh read, before
// anything is sent: each resource the plan saw is there, with each
// setting as the plan saw it or as the plan's changes set it (a run of
// the plan cut short leaves some of each), and every change's
// precondition holds once the changes before it are made. It returns
// every service's first stale resource, joined.
func (p *Plan) check(w *world) error {
	var errs []error
	stale := map[string]bool{} // the services found stale: their first error is enough
	fail := func(service string, err error) {
		if !stale[service] {
			stale[service] = true
			errs = append(errs, err)
		}
	}
	for _, s := range p.Seen {
		if err := p.checkSeen(w, &s); err != nil {
			fail(s.Service, err)
		}
	}
	sim := w.clone()
	for i := range p.Changes {
		ch := &p.Changes[i]
		if stale[ch.Service] {
			continue
		}
		e, err := sim.findFor(ch)
		if err != nil {
			fail(ch.Service, err)
			continue
		}
		act, err := precondition(ch, e)
		switch {
		case err != nil:
			fail(ch.Service, err)
		case act:
			sim.apply(ch)
		}
	}
	return join(errs)
}

// checkSeen checks one resource the plan saw against w.
func (p *Plan) checkSeen(w *world, s *Seen) error {
	e, err := w.one(s.Kind, s.Service, s.Name)
	switch {
	case err != nil:
		return err
	case s.ID == "":
		return nil // planned as a create: its precondition says
	case e == nil && p.Destroy:
		return nil // gone already: what a destroy makes
	case e == nil || e.id != s.ID:
		return &StalePlanError{Kind: s.Kind, Name: s.Name, ID: s.ID, Expected: s.Values}
	}
	for _, f := range allFields {
		if s.Values.has(f) && !e.values().same(f, s.Values) && !slices.ContainsFunc(p.targets(s, f), func(to *Values) bool { return e.values().same(f, to) }) {
			return &StalePlanError{Kind: s.Kind, Name: s.Name, ID: s.ID, Field: f, Expected: s.Values.only(f), Found: e.values().only(f)}
		}
	}
	return nil
}

// targets are the values the plan's changes of a resource's field set.
func (p *Plan) targets(s *Seen, f Field) []*Values {
	var out []*Values
	for i := range p.Changes {
		c := &p.Changes[i]
		if c.Kind == s.Kind && c.Service == s.Service && c.Name == s.Name && c.Action == Update && c.Field == f {
			out = append(out, c.To)
		}
	}
	return out
}

// allFields are the fields a plan can have seen.
var allFields = []Field{FieldStatus, FieldSize, FieldHAReplicas, FieldEnvironment, FieldPooler, FieldVPC, FieldNodes, FieldName}
