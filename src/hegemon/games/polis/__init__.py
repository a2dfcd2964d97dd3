"""Polis: Fight for the Hegemony (first edition), two players, with the user's four siege rules.

The game object is `hegemon.games.polis.game.GAME`; see README.md in this folder."""
