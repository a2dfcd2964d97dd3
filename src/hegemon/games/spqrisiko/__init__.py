"""S.P.Q.RisiKo! (Editrice Giochi 2005): board data, rules engine, exact odds, views and a text board."""
