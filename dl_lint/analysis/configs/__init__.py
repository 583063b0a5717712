"""Settings that live outside the DataLoader call: YAML files read by Hydra/OmegaConf, dataclass
configs, mmengine Python configs (one module per source). Facts only: what a config key holds,
where it is written, and whether the command line can override it. Rules judge.

YAML is read with PyYAML, imported only when a linted Python file reaches a YAML file.
"""
