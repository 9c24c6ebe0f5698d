package deploy

import (
	"slices"

	"github.com/dbcloud/dbcloud-go"
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

// find returns the resource a create or update is about: the live one of
// its kind and name (and, once the plan knew it, id); nil when there is
// none. A delete's is found by id.
func (w *world) find(ch *Change) (*entry, error) {
	if ch.Action == Delete {
		return w.byID(ch.Kind, ch.ID), nil
	}
	e, err := w.one(ch.Kind, ch.Name)
	if e != nil && ch.Action == Update && ch.ID != "" && e.id != ch.ID {
		return nil, nil // the resource the plan saw is gone; another has its name
	}
	return e, err
}

// precondition says whether ch's step is to act on e, the resource find
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
	case e.planned:
		return true, nil
	}
	cur := e.vals.text(ch.Field)
	switch {
	case cur == ch.To.text(ch.Field):
		return false, nil
	case ch.Field == FieldStatus, cur == ch.From.text(ch.Field):
		return true, nil
	}
	return false, &StalePlanError{Kind: ch.Kind, Name: ch.Name, ID: e.id, Field: ch.Field, Expected: ch.From.only(ch.Field), Found: e.vals.only(ch.Field)}
}

// check is the test of a saved plan against w, a fresh read, before
// anything is sent: each resource the plan saw is there, with each
// setting as the plan saw it or as the plan's changes set it (a run of
// the plan cut short leaves some of each), and every change's
// precondition holds once the changes before it are made.
func (p *Plan) check(w *world) error {
	for _, s := range p.Seen {
		e, err := w.one(s.Kind, s.Name)
		switch {
		case err != nil:
			return err
		case s.ID == "":
			continue // planned as a create: its precondition says
		case e == nil || e.id != s.ID:
			return &StalePlanError{Kind: s.Kind, Name: s.Name, ID: s.ID, Expected: s.Values}
		}
		for _, f := range allFields {
			want, got := s.Values.text(f), e.vals.text(f)
			if want != "" && got != want && !slices.Contains(p.targets(s.Kind, s.Name, f), got) {
				return &StalePlanError{Kind: s.Kind, Name: s.Name, ID: s.ID, Field: f, Expected: s.Values.only(f), Found: e.vals.only(f)}
			}
		}
	}
	sim := w.clone()
	for i := range p.Changes {
		ch := &p.Changes[i]
		e, err := sim.find(ch)
		if err != nil {
			return err
		}
		act, err := precondition(ch, e)
		switch {
		case err != nil:
			return err
		case !act:
			continue
		case ch.Action == Create:
			// Its settings are the create's answer's: what the plan
			// derived the changes after it from.
			sim.entries = append(sim.entries, &entry{kind: ch.Kind, name: ch.Name, planned: true, vals: &Values{}})
		case ch.Action == Delete:
			sim.remove(e)
		default:
			e.vals.copyField(ch.Field, ch.To)
		}
	}
	return nil
}

// allFields are the fields a plan can have seen.
var allFields = []Field{FieldStatus, FieldSize, FieldHAReplicas, FieldEnvironment, FieldPooler, FieldVPC, FieldNodes}

// ready holds for a service READY or a replica set active.
func (e *entry) ready() bool {
	if e.kind == dbcloud.KindReplicaSet {
		return e.vals.Status == string(dbcloud.ReplicaSetActive)
	}
	return e.vals.Status == string(dbcloud.StatusReady)
}
