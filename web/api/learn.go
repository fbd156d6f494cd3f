package api

// LearnStep is a step of "Learn the rules", as GET /api/v2/learn
// answers it: a
// position, what the player may do in it and what the step asks for, and
// the catalog keys of its texts. The page explains a wrong click itself
// (a stone of the other side, an empty square, a stone that cannot jump,
// a diagonal, a turn, no landing square), with the legal moves to tell
// them apart.
type LearnStep struct {
	ID    string   `json:"id"`
	Size  int      `json:"size"`
	Board []string `json:"board"` // as in a state: top rank first, x/o/.
	Turn  string   `json:"turn"`
	Phase string   `json:"phase"`
	// Click: the step asks for a click on one of Legal (squares), not a
	// move.
	Click bool       `json:"click,omitempty"`
	Legal []string   `json:"legal"` // the legal moves
	Task  []string   `json:"task"`  // those that do what the step asks
	Marks []string   `json:"marks"` // the squares to highlight
	Title string     `json:"title"` // message keys
	Text  string     `json:"text"`  //
	Done  string     `json:"done"`  // after the task
	Wrong string     `json:"wrong"` // after a legal move that is not the task ("" if all are)
	After [][]string `json:"after"` // the board after each move of Task, in the same order
}
