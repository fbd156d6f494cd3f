package apbot

// The JSON of the protocol, as node-backend's docs/bots/protocol.md and
// lib/botOutbound.ts (buildOutChallengePayload, buildOutMovePayload) and
// lib/botClient.ts (submitBotMove) write it. Fields the bot does not read
// are left out; unknown fields are ignored.

// MetaGame is AbstractPlay's uid of Kōnane (gameslib's konane.ts).
const MetaGame = "konane"

// Verbs of the webhooks and of botQuery.
const (
	VerbChallenge = "challenge"
	VerbMove      = "move"
)

// envelope is what the bot reads first of every webhook.
type envelope struct {
	Verb string `json:"verb"`
}

// Challenge is the "out-challenge" webhook: a person challenges the bot.
type Challenge struct {
	Verb        string   `json:"verb"`
	MetaGame    string   `json:"metaGame"`
	Variants    []string `json:"variants"`
	ClockStart  float64  `json:"clockStart"` // hours
	ClockInc    float64  `json:"clockInc"`   // hours
	ClockMax    float64  `json:"clockMax"`   // hours
	Challengers []string `json:"challengers"`
}

// MoveRequest is the "out-move" webhook: it is the bot's turn in a game.
type MoveRequest struct {
	Verb     string   `json:"verb"`
	MetaGame string   `json:"metaGame"`
	Variants []string `json:"variants"`
	GameID   string   `json:"gameid"`
	// ClockCurr is the bot's time left in hours, rounded (0: under 30
	// minutes).
	ClockCurr  float64 `json:"clockCurr"`
	NumPlayers int     `json:"numPlayers"`
	// Moves is the history in rounds, each one move per seat in seat
	// order (the last round may be short).
	Moves [][]string `json:"moves"`
}

// Submission is the "in-move" body the bot POSTs to botQuery.
type Submission struct {
	Verb     string `json:"verb"`
	GameID   string `json:"gameid"`
	MetaGame string `json:"metaGame"`
	Move     string `json:"move"`
}

// reply is the JSON body of the bot's answers to webhooks: the ping's
// {"operational": true}, a challenge's {"accepted": true}, a move's
// {"queued": true} (the reference bot's words), or a message saying why
// not.
type reply struct {
	Operational *bool  `json:"operational,omitempty"`
	Accepted    bool   `json:"accepted,omitempty"`
	Queued      bool   `json:"queued,omitempty"`
	Message     string `json:"message,omitempty"`
}
