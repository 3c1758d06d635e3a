"""A package of editors outside ``builder/editors`` (``builder.editors.add_package``)."""
