package model

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Where a series' samples come from: made up, a fixed function of the
// service, the series, the node and the minute, or recorded by the test
// (RecordMetrics), which then replace them.

// sample is one recorded sample of a series.
type sample struct {
	at    time.Time
	node  int
	value float64
}

// RecordMetrics makes series hold the given samples of a service, on top
// of those recorded before: from the first on, nothing is made up for it.
func (m *Model) RecordMetrics(serviceID, series string, samples ...MetricSample) error {
	if _, ok := seriesIndex(series); !ok {
		return fmt.Errorf("dbcloudtest: RecordMetrics: unknown series %q: want one of %s", series, strings.Join(SeriesNames(), ", "))
	}
	for i, smp := range samples {
		if smp.Node < 0 {
			return fmt.Errorf("dbcloudtest: RecordMetrics: sample %d: negative node %d", i, smp.Node)
		}
		if math.IsNaN(smp.Value) || math.IsInf(smp.Value, 0) {
			return fmt.Errorf("dbcloudtest: RecordMetrics: sample %d: value %v is not a finite number", i, smp.Value)
		}
	}
	return m.withService(serviceID, func(s *Service, now time.Time) error {
		if s.recorded == nil {
			s.recorded = make(map[string][]sample)
		}
		rec := s.recorded[series]
		if rec == nil {
			rec = []sample{} // recorded, if empty: the series holds no made-up data from now on
		}
		for _, smp := range samples {
			at := smp.Time
			if at.IsZero() {
				at = now
			}
			rec = append(rec, sample{at: at, node: smp.Node, value: smp.Value})
		}
		slices.SortStableFunc(rec, func(a, b sample) int { return a.at.Compare(b.at) })
		s.recorded[series] = rec
		return nil
	})
}

// MetricSample is one sample RecordMetrics records: a zero Time is now.
type MetricSample struct {
	Time  time.Time
	Node  int // 0 the primary, 1..n the HA replicas
	Value float64
}

// samples is where a series' values come from: made up, or recorded.
type samples interface {
	// between appends the values of the samples in [lo, hi), in time order.
	between(buf []float64, lo, hi time.Time) []float64
	// before is the value of the last sample before t.
	before(t time.Time) (float64, bool)
}

// source is where the samples of series catalog[i] of a node come from.
func (s *Service) source(i, node int, now time.Time) samples {
	si := &catalog[i]
	if rec, ok := s.recorded[si.name]; ok {
		return recorded{rec, node}
	}
	// The made-up samples fall on whole minutes from the creation to now.
	return madeUp{counter: si.counter, salt: uint64(i)<<56 ^ uint64(s.load) ^ uint64(node)<<40, node: node, scale: si.scale(s),
		first: floorDiv(s.created.Add(time.Minute-time.Nanosecond).Unix(), 60), last: floorDiv(now.Unix(), 60)}
}

type recorded struct {
	all  []sample
	node int
}

// index is where the samples at or after t begin in all, sorted by time.
func (r recorded) index(t time.Time) int {
	i, _ := slices.BinarySearchFunc(r.all, t, func(smp sample, t time.Time) int {
		if smp.at.Before(t) {
			return -1
		}
		return 1 // samples at t sort after it: i is the first of them
	})
	return i
}

func (r recorded) between(buf []float64, lo, hi time.Time) []float64 {
	for _, smp := range r.all[r.index(lo):] {
		if !smp.at.Before(hi) {
			break
		}
		if smp.node == r.node {
			buf = append(buf, smp.value)
		}
	}
	return buf
}

func (r recorded) before(t time.Time) (float64, bool) {
	for i := r.index(t) - 1; i >= 0; i-- {
		if r.all[i].node == r.node {
			return r.all[i].value, true
		}
	}
	return 0, false
}

// madeUp is a series' made-up samples: one each minute from first to last
// (Unix minutes), a fixed function of salt (the series, the service's load
// and the node) and the minute: around scale, or, for a counter, growing
// by about scale a minute.
type madeUp struct {
	counter     bool
	salt        uint64
	node        int
	scale       float64
	first, last int64
}

func (g madeUp) at(minute int64) float64 {
	if g.counter {
		return math.Round(float64(minute-g.first+1) * g.scale * (1 + float64(g.node)/10))
	}
	h := mix(g.salt ^ uint64(minute))
	return math.Round(g.scale * (0.5 + float64(h%1000)/1000))
}

func (g madeUp) between(buf []float64, lo, hi time.Time) []float64 {
	from := max(g.first, floorDiv(lo.Add(time.Minute-time.Nanosecond).Unix(), 60))
	to := min(g.last, floorDiv(hi.Add(-time.Nanosecond).Unix(), 60))
	for minute := from; minute <= to; minute++ {
		buf = append(buf, g.at(minute))
	}
	return buf
}

func (g madeUp) before(t time.Time) (float64, bool) {
	minute := min(g.last, floorDiv(t.Add(-time.Nanosecond).Unix(), 60))
	if minute < g.first {
		return 0, false
	}
	return g.at(minute), true
}

// mix is SplitMix64's finaliser: a made-up sample looks random but is
// fixed.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
