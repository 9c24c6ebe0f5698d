package chaos

import (
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Kind is what the proxy does to one request.
type Kind int

// The kinds of fault. The stream draws one of seven kinds evenly; a drawn
// 5xx is, a third of the time each, answered by the proxy without forwarding
// (Status5xxBefore), after the server acted (Status5xxAfter), or at once
// with the request forwarded later anyway (Status5xxLate), as a gateway that
// timed out on a slow upstream does.
const (
	None            Kind = iota // forwarded and answered as the server answered
	Status5xxBefore             // 500, 502, 503 or 504 from the proxy; never forwarded
	Status5xxAfter              // forwarded; the server's answer is replaced by a 5xx
	Status5xxLate               // a 5xx at once; the request reaches the server a Delay later
	RateLimited                 // 429 with Retry-After from the proxy; never forwarded
	ResetBefore                 // the request is read, then the connection reset; never forwarded
	ResetAfter                  // forwarded, the answer read, then the connection reset
	CutOff                      // forwarded; headers with the full Content-Length, half the body, close
	Malformed                   // forwarded; the body replaced by broken JSON, same status
	Spike                       // held for a while, then forwarded normally
	numKinds
)

var kindNames = [numKinds]string{
	None:            "none",
	Status5xxBefore: "5xx, not forwarded",
	Status5xxAfter:  "5xx after the server acted",
	Status5xxLate:   "5xx, forwarded late",
	RateLimited:     "429 Retry-After",
	ResetBefore:     "reset before the server acted",
	ResetAfter:      "reset after the server acted",
	CutOff:          "cut-off body",
	Malformed:       "malformed body",
	Spike:           "latency spike",
}

// String names the kind as the report does.
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "unknown"
	}
	return kindNames[k]
}

// drawn are the kinds a faulted request draws from, evenly; the 5xx entry
// stands for the three 5xx kinds.
var drawn = [...]Kind{Status5xxBefore, RateLimited, ResetBefore, ResetAfter, CutOff, Malformed, Spike}

var statuses5xx = [...]int{
	http.StatusInternalServerError, http.StatusBadGateway,
	http.StatusServiceUnavailable, http.StatusGatewayTimeout,
}

// Fault is the proxy's decision for one request.
type Fault struct {
	Kind   Kind
	Status int           // the 5xx kinds: the status answered
	Delay  time.Duration // Spike, Status5xxLate: how long the request is held
}

// Stream draws faults from a seeded generator. Every request draws the same
// number of values, faulted or not, so the n-th request always gets the
// same fault for a seed. Which request is the n-th depends on how the
// concurrent workflows interleave: a seed fixes the fault sequence, not
// which call meets which fault. Safe for concurrent use.
type Stream struct {
	rate               float64
	spikeMin, spikeMax time.Duration
	// heldShare of the spikes hold a request between heldMin and heldMax
	// instead: in the deadline regime, longer than the caller's deadline,
	// a held connection (no answer, no reset) as far as the caller can
	// tell. 0 leaves the stream's draws as they always were.
	heldShare        float64
	heldMin, heldMax time.Duration

	mu  sync.Mutex
	rng *rand.Rand
}

// NewStream returns a stream in which a request is faulted with probability
// rate, and a spike holds a request between spikeMin and spikeMax.
func NewStream(seed uint64, rate float64, spikeMin, spikeMax time.Duration) *Stream {
	return &Stream{rate: rate, spikeMin: spikeMin, spikeMax: spikeMax, rng: rand.New(rand.NewPCG(seed, 0x6368616f73))}
}

// Held makes share of the spikes hold a request between min and max
// instead of the spike range, and returns s. Call it before the first Next.
// With a share above 0 every request draws two more values, so a seed's
// sequence differs from the one without held spikes.
func (s *Stream) Held(share float64, min, max time.Duration) *Stream {
	s.heldShare, s.heldMin, s.heldMax = share, min, max
	return s
}

// Next draws the fault of the next request.
func (s *Stream) Next() Fault {
	s.mu.Lock()
	faulted := s.rng.Float64() < s.rate
	kind := drawn[s.rng.IntN(len(drawn))]
	status := s.rng.IntN(3 * len(statuses5xx)) // modulo 3: before, after or late; the rest: which status
	delay := s.spikeMin + time.Duration(s.rng.Int64N(int64(s.spikeMax-s.spikeMin)+1))
	spikeDelay := delay
	if s.heldShare > 0 {
		held := s.rng.Float64() < s.heldShare
		long := s.heldMin + time.Duration(s.rng.Int64N(int64(s.heldMax-s.heldMin)+1))
		if held {
			spikeDelay = long
		}
	}
	s.mu.Unlock()

	switch {
	case !faulted:
		return Fault{Kind: None}
	case kind == Status5xxBefore:
		kind = [...]Kind{Status5xxBefore, Status5xxAfter, Status5xxLate}[status%3]
		return Fault{Kind: kind, Status: statuses5xx[status/3], Delay: delay}
	case kind == Spike:
		return Fault{Kind: Spike, Delay: spikeDelay}
	}
	return Fault{Kind: kind}
}
