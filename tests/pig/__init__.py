"""Secret Pig: a toy third game added by following docs/adding-a-game.md alone (the dice game Pig, with a hidden
bonus dealt to each player). Registered only inside tests (`hegemon.games.registered_game`)."""
