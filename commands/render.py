"""What the terminal shows: tiles, legends, trace tables, the keyboard and progress bars (rich)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from rich.cells import cell_len
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from agents import Decision
from plumbing.errors import UserError
from wordle import Playthrough, Turn, Wordle, decode_colours, format_pattern
from wordle.patterns import share_grid

#: Output width when stdout is not a terminal (rich would otherwise assume 80 and squeeze tables).
PIPED_WIDTH = 160


#: Tile styles by colour code (2 green, 1 yellow, 0 grey) for each --palette; `contrast` is the real game's
#: high-contrast mode (orange for the right place, blue for the wrong place). The reply column and the
#: keyboard's marks carry the same feedback as text, so nothing depends on colour (piped output, NO_COLOR).
PALETTES = {
    "default": {2: "bold white on #538d4e", 1: "bold white on #b59f3b", 0: "bold white on #3a3a3c"},
    "contrast": {2: "bold white on #f5793a", 1: "bold black on #85c0f9", 0: "bold white on #3a3a3c"},
}


REPLY_LEGEND = "reply: g right letter, right place; y in the word, elsewhere; - not in the word"


#: What a played game's trace shows beyond the reply, printed under it.
TRACE_LEGEND = ("value: expected guesses to finish from that turn, that guess included, with best play after it, "
                "over the game's answers (lower is better): the optimal solver's, the same figure review, assist and "
                "the web show; a plain value is proved, '≤ x' has a tree reaching x, '≥ x' is a proved bound only")


#: ... and for a searching agent.
SEARCH_LEGEND = ("; top alternatives: the agent's next choices in its own order, with the same value; "
                 "nodes: positions searched")


@contextmanager
def waiting(what: str) -> Iterator[None]:
    """A spinner on stderr saying what the program is doing while it works (drawn on a terminal only)."""
    with plain_console(stderr=True).status(Text(what), spinner="dots"):
        yield


def tiles(word: str, pattern: int, palette: str = "default") -> Text:
    """A guess as coloured tiles."""
    text = Text()
    for letter, colour in zip(word.upper(), decode_colours(pattern)):
        text.append(f" {letter} ", style=PALETTES[palette][colour])
        text.append(" ")
    return text


#: Alternatives a trace shows for each guess.
TRACE_ALTERNATIVES = 4


def turn_values(game: Wordle, turns: list[Turn], hard: bool, max_guesses: int,
                decisions: list[Decision] | None = None, ultra: bool = False) -> list[list[Any]]:
    """Each turn's value where it was played (then the agent's top alternatives'), as review and assist show them.

    agents.model_value.value_turns under the game's own answer list, all equally likely, within the
    default node budget: a value is proved, or the bound it is.
    """
    from agents.answer_model import uniform_model
    from agents.model_value import Valuer, value_turns

    if not turns:
        return []
    state = game.initial_state(hard=hard, max_guesses=max_guesses, ultra=ultra)
    with waiting(f"valuing each guess ({len(turns)})"):
        return value_turns(Valuer(uniform_model(game)), state, [(t.guess, t.pattern) for t in turns],
                           [[g for g, _ in d.alternatives[:TRACE_ALTERNATIVES]] for d in decisions] if decisions
                           else ())


def trace_table(game: Wordle, turns: list[Turn], decisions: list[Decision] | None = None,
                palette: str = "default", values: list[list[Any]] | None = None) -> Table:
    """One row per guess: tiles, the reply as text, answers left, bits gained, the guess's value (when `values`,
    from `turn_values`, are given) and, for searching agents, the alternatives weighed and the nodes searched."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("guess")
    table.add_column("reply")
    table.add_column("left", justify="right")
    table.add_column("bits", justify="right")
    if values is not None:
        table.add_column("value", justify="right")
    show_search = bool(decisions) and any(d.alternatives or d.nodes for d in decisions)
    if show_search:
        table.add_column("top alternatives" + (" (value)" if values is not None else ""))
        table.add_column("nodes", justify="right")
    for number, turn in enumerate(turns, start=1):
        row: list[Any] = [str(number), tiles(game.words.guesses[turn.guess], turn.pattern, palette),
                          format_pattern(turn.pattern), str(turn.remaining_after), f"{turn.bits:.2f}"]
        shown = values[number - 1] if values is not None else []
        if values is not None:
            row.append(shown[0].text())
        if show_search and decisions is not None:
            decision = decisions[number - 1]
            weighed = [g for g, _ in decision.alternatives[:TRACE_ALTERNATIVES]]
            texts = {g: v.text() for g, v in zip([g for g in weighed if g != turn.guess], shown[1:])}
            texts[turn.guess] = shown[0].text() if shown else ""
            row.append(", ".join(f"{game.words.guesses[g]} {texts.get(g, '')}".strip() for g in weighed))
            nodes = str(decision.nodes) if decision.nodes else ""
            row.append(f"{nodes} ({'shallower search' if decision.fallback else 'budget reached'})"
                       if decision.budget_reached else nodes)
        table.add_row(*row)
    return table


def worst_text(worst: int, max_guesses: int) -> str:
    """The worst game as the tournament prints it: its guess count, or X when some game was not solved."""
    return "X" if worst > max_guesses else str(worst)


def outcome_line(game: Wordle, playthrough: Playthrough, max_guesses: int) -> Text:
    """How the game ended, in one line."""
    used = len(playthrough.turns)
    if playthrough.answer is None:  # an Indicator that holds no answer
        left = len(playthrough.final.candidates)
        return Text(f"Not solved in {max_guesses} guesses: the Indicator held no answer; {left} were still possible.",
                    style="bold red")
    answer = game.words.answers[playthrough.answer].upper()
    if playthrough.solved:
        return Text(f"Solved {answer} in {used}/{max_guesses}.", style="bold green")
    return Text(f"Not solved in {max_guesses} guesses: the answer was {answer}.", style="bold red")


def share_grid_of(playthrough: Playthrough, max_guesses: int, palette: str = "default") -> str:
    """A played game's share grid (wordle.patterns.share_grid)."""
    return share_grid([turn.pattern for turn in playthrough.turns], playthrough.solved, max_guesses,
                      playthrough.final.hard, palette)


#: The keyboard's rows, as on the game's screen.
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


KEY_STATES = {2: "right place", 1: "elsewhere", 0: "not in the word"}


def letter_states(game: Wordle, history: tuple[tuple[int, int], ...]) -> dict[str, int]:
    """The best colour each guessed letter has shown (2 green, 1 yellow, 0 grey); unused letters are absent."""
    best: dict[str, int] = {}
    for guess, pattern in history:
        for letter, colour in zip(game.words.guesses[guess], decode_colours(pattern)):
            best[letter] = max(best.get(letter, 0), colour)
    return best


def keyboard(game: Wordle, history: tuple[tuple[int, int], ...], palette: str = "default") -> list[Text]:
    """The keyboard with each used letter coloured, then the same in words (readable without colour)."""
    best = letter_states(game, history)
    lines = []
    for indent, row in enumerate(KEY_ROWS):
        line = Text(" " * indent)
        for letter in row:
            style = PALETTES[palette][best[letter]] if letter in best else ""
            line.append(f" {letter.upper()} ", style=style)
            line.append(" ")
        lines.append(line)
    groups = [f"{label}: {' '.join(sorted(l.upper() for l, c in best.items() if c == colour)) or '(none)'}"
              for colour, label in KEY_STATES.items()]
    unused = " ".join(sorted(set("".join(KEY_ROWS)) - set(best))).upper()
    lines.append(Text("; ".join(groups) + f"; unused: {unused or '(none)'}"))
    return lines


def matrix_progress(console: Console, total: int | None, verb: str, shown: bool = True) -> tuple[Progress, Any, Any]:
    """A started progress bar over a matrix's games, its advance(rows) callback naming the group just done, and
    its on_prepare(agent, mode, limit) callback naming the Guesser preparing before the games."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    progress = Progress(TextColumn("{task.description:<44}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=console, transient=False, disable=not shown)
    bar = progress.add_task(f"{verb} (each Guesser and mode, hard first)", total=total)
    progress.start()

    def advance(rows: list[dict]) -> None:
        first = rows[0]
        progress.update(bar, advance=len(rows), description=f"{verb}: {first['agent']} {first['mode']} done")

    def preparing(agent: str, mode: str, limit: int) -> None:
        progress.update(bar, description=f"preparing {agent} ({mode}, {limit} guesses)")
    return progress, advance, preparing


def chance_text(chance: float) -> str:
    """A chance as a percentage, with two significant digits below 10% (so a small chance never reads 0%).

    >>> chance_text(0.5), chance_text(0.0968), chance_text(0.00094)
    ('50%', '9.7%', '0.094%')
    """
    return f"{chance:.0%}" if chance >= 0.1 or chance == 0 else f"{chance * 100:.2g}%"


def plain_console(stderr: bool = False) -> Console:
    """A rich console that prints text as given: no highlighting, and ':x:' in a word stays ':x:', not an emoji."""
    return Console(stderr=stderr, highlight=False, emoji=False)


def next_step_line(console: Console, number: int) -> str | None:
    """The next non-empty line typed at the `step N>` prompt, or None at the end of input (Ctrl-D)."""
    while True:
        try:
            line = console.input(f"step {number}> ").strip()
        except EOFError:
            console.print()
            return None
        if line:
            return line


def advise_at_prompt(console: Console, consult: Callable[[list], Any], show: Callable[[Any], None],
                     parse: Callable[[str], Any] = str) -> None:
    """Read steps at the `step N>` prompt until Ctrl-D, showing the advice after each: a line is parsed and added
    ('undo' takes the last step back); a step that `parse` or `consult` refuses (UserError) is said in yellow and
    left out."""
    steps: list = []
    show(consult(steps))
    while (line := next_step_line(console, len(steps) + 1)) is not None:
        try:
            attempt = steps[:-1] if line.lower() == "undo" else steps + [parse(line)]
            advice = consult(attempt)
        except UserError as error:
            console.print(Text(str(error), style="yellow"))
            continue
        steps = attempt
        show(advice)


# -- games of every other shape (several boards, other lengths, lies) ---------------------------
def reply_cells(game: Any, reply: tuple[int | None, ...], palette: str) -> str:
    """One reply of a `variants.GameSpec` game as text: each board's pattern in letters and squares, '(solved)' where a
    board already was."""
    from wordle.patterns import SHARE_PALETTES

    cells = []
    for pattern in reply:
        if pattern is None:
            cells.append(None)
        else:
            squares = format_pattern(pattern, "emoji", game.length).translate(SHARE_PALETTES[palette])
            cells.append(f"{format_pattern(pattern, length=game.length)} {squares}")
    width = max((cell_len(cell) for cell in cells if cell is not None), default=0)  # the squares are two columns each
    return "  ".join("(solved)" + " " * (width - len("(solved)")) if cell is None else cell for cell in cells).rstrip()


def board_trace(console: Console, game: Any, guesses: list[str], replies: list[tuple[int | None, ...]],
                palette: str) -> None:
    """A played (or typed) game of any shape but Wordle's, one numbered row a guess with each board's reply."""
    for number, (guess, reply) in enumerate(zip(guesses, replies), start=1):
        console.print(f"{number:>2}. {guess.upper():<{game.length}}  {reply_cells(game, reply, palette)}", markup=False)


#: What the board suggestion columns mean.
BOARD_SUGGESTION_LEGEND = (
    "bits: the information the reply is expected to give, summed over the open boards (fibble: what the row as shown "
    "tells, its lie's noise taken off; higher is better); boards: how many open boards it can solve; chance: the "
    "chance it solves one, summed over the open boards; value: a searching agent's own value (guesses left at the "
    "win, higher is better). No exact value is known for these games, so no expected guesses are shown.")


def board_advice_view(console: Console, board_game: Any, advice: Any, palette: str) -> None:
    """Advice on a game of several boards or lies (`agents.board_advice`): the steps, each board's possible answers,
    the suggestions table."""
    from agents.board_advice import board_lines
    from variants import replies_of

    game, state, words = advice.spec, advice.state, board_game.words
    console.print(game.describe(), markup=False)
    history = replies_of(state)
    board_trace(console, game, [words.guesses[g] for g, _ in history], [r for _, r in history], palette)
    for line in board_lines(board_game, state):
        console.print(line, markup=False)
    if state.won:
        console.print(f"Solved in {state.guesses_used}/{game.max_guesses}.", markup=False)
        return
    if board_game.is_terminal(state):
        console.print(f"No guesses left: the game allows {game.max_guesses}.", markup=False)
        return
    console.print(f"guess {state.guesses_used + 1} of {game.max_guesses}", markup=False)
    table = Table(title=f"suggestions ({advice.agent})",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    searched = any(s.value is not None for s in advice.suggestions)
    for column in ("#", "guess", "bits", "boards", "chance") + (("value",) if searched else ()):
        table.add_column(column, justify="left" if column == "guess" else "right")
    for number, s in enumerate(advice.suggestions, start=1):
        row = [str(number), words.guesses[s.guess], f"{s.bits:.3f}", str(s.boards_it_can_solve), f"{s.chance:.1%}"]
        table.add_row(*row, *((f"{s.value:.3f}" if s.value is not None else "-",) if searched else ()))
    console.print(table)
    console.print(BOARD_SUGGESTION_LEGEND, style="dim", markup=False)


#: The columns a board takes in the board view beside the next one.
BOARD_GAP = 2
#: The row numbers' column of the board view (" 1. ").
ROW_LABEL = 4


def board_letters(words: Any, history: Any, board: int) -> dict[str, int]:
    """One board's best colour for each letter guessed on it while it was open (2 green, 1 yellow, 0 grey)."""
    best: dict[str, int] = {}
    for guess, reply in history:
        if reply[board] is None:
            continue
        for letter, colour in zip(words.guesses[guess], decode_colours(reply[board], len(words.guesses[guess]))):
            best[letter] = max(best.get(letter, 0), colour)
    return best


def board_cell(word: str, pattern: int, palette: str) -> Text:
    """One board's row of the board view: the guess's letters on their colours, then the reply in letters."""
    text = Text()
    for letter, colour in zip(word.upper(), decode_colours(pattern, len(word))):
        text.append(f"{letter} ", style=PALETTES[palette][colour])
    text.append(" " + format_pattern(pattern, length=len(word)))
    return text


def boards_view(game: Any, words: Any, history: Any, solved: tuple[bool, ...], left: tuple[int, ...],
                palette: str = "default", width: int = 80) -> list[Text]:
    """A game of several boards (or Fibble's one) as a person sees it: the boards side by side in as many bands as
    `width` needs, one numbered row a guess (blank on a board solved before it), each board's count of answers left
    under it, and for several boards the letters that are grey on every open board.

    Args:
        game: the `variants.GameSpec` played. words: its lists. history: (guess, reply) pairs, one pattern a board.
        solved: each board's state. left: each board's answers still possible. width: the columns to fit.

    Returns:
        The lines to print; the reply spelt in letters beside the colours, so it reads without colour (NO_COLOR).
    """
    cell = 3 * game.length + 1
    fit = max(1, (width - ROW_LABEL + BOARD_GAP) // (cell + BOARD_GAP))
    bands = -(-game.boards // fit)
    across = -(-game.boards // bands)
    lines: list[Text] = []
    for first in range(0, game.boards, across):
        boards = range(first, min(first + across, game.boards))
        if game.boards > 1:
            lines.append(Text(" " * ROW_LABEL + (" " * BOARD_GAP).join(f"board {b + 1}".ljust(cell) for b in boards)
                              .rstrip(), style="bold"))
        for number, (guess, reply) in enumerate(history, start=1):
            line = Text(f"{number:>2}. ")
            for place, board in enumerate(boards):
                if place:
                    line.append(" " * BOARD_GAP)
                if reply[board] is None:
                    line.append(" " * cell)
                else:
                    line.append_text(board_cell(words.guesses[guess], reply[board], palette))
            line.rstrip()
            lines.append(line)
        status = []
        for board in boards:
            if solved[board]:
                when = next(n for n, (_, reply) in enumerate(history, 1) if reply[board] == all_green_of(game.length))
                status.append(f"solved in {when}".ljust(cell))
            else:
                status.append(f"{left[board]} left".ljust(cell))
        lines.append(Text(" " * ROW_LABEL + (" " * BOARD_GAP).join(status).rstrip(), style="dim"))
    open_boards = [b for b in range(game.boards) if not solved[b]]
    if game.boards > 1 and history and open_boards:
        states = [board_letters(words, history, b) for b in open_boards]
        grey = sorted(letter for letter in set().union(*states) if all(s.get(letter) == 0 for s in states))
        used = {letter for guess, _ in history for letter in words.guesses[guess]}
        unused = sorted(set("".join(KEY_ROWS)) - used)
        lines.append(Text(f"grey on every open board: {' '.join(grey).upper() or '(none)'}"))
        lines.append(Text(f"unused: {' '.join(unused).upper() or '(none)'}"))
    return lines


def all_green_of(length: int) -> int:
    """The all-green pattern of words of `length` letters."""
    from wordle.feedback import all_green
    return all_green(length)
