"""The match viewer: one self-contained HTML page per replay (build), PNG minimaps
and animated GIFs for reports (pictures), and the ``replay`` command line (cli).
docs/viewer.md.

    from gota_arena.viewer import build, pictures
    build.replay_to_html("match.gotareplay")                   # match.html
    pictures.png_of_tick("match.gotareplay", 2400, "t2400.png")
    pictures.gif_of_segment("match.gotareplay", 2400, 3600, "fight.gif")
"""
