"""Settings that live outside the DataLoader call: YAML files read by Hydra/OmegaConf, dataclass
configs, mmengine Python configs (one module per source). Facts only: what a config key holds,
where it is written, and whether the command line can override it. Rules judge.

YAML is read with PyYAML, imported only when a linted Python file reaches a YAML file.
"""


def found_as_word(regex, data: bytes) -> bool:
    r"""Whether ```` + ``regex`` (a pattern whose every match begins with a word character)
    matches ``data``: ``regex`` is searched without the ````, so that ``re`` finds its first
    letters with a fast scan (a pattern that begins with ```` is tried at every byte), and
    the boundary is checked by hand (the byte before is not a word character)."""
    match = regex.search(data)
    while match is not None:
        start = match.start()
        if start == 0 or not _is_word(data[start - 1]):
            return True
        match = regex.search(data, start + 1)
    return False


def _is_word(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122  # re's \w for bytes (ASCII)
