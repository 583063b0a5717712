"""DL202 and torchvision's datasets: what a dataset class keeps of its constructor's arguments
(``libraries.TORCHVISION_KEEPING``, read in torchvision's source by bench/torchvision_keeping.py)
and project subclasses of them, read as the loader subclasses are (``SummaryModule.
kept_parameters``). torchvision does not import beside the CPU torch the tests install, so the
behaviour is proven by fixtures/spawn/dl202_vision_dataset_subclass.py with a dataset shaped as
``VisionDataset``; here, the reading."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dl_lint import lint_paths
from dl_lint.analysis.libraries import TORCHVISION_KEEPING, TORCHVISION_KEPT

ROOT = Path(__file__).resolve().parents[1]

HEADER = """\
import torchvision
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.datasets import ImageFolder

rgb = transforms.Compose([transforms.Lambda(lambda img: img.convert("RGB")), transforms.ToTensor()])
"""


def _reported(tmp_path: Path, body: str):
    script = tmp_path / "train.py"
    script.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    result = lint_paths([script], overrides={"select": ("DL202",)})
    return sorted(d.location.row - HEADER.count("\n") for d in result.diagnostics)


def test_every_row_keeps_a_transform_under_both_names():
    assert len(TORCHVISION_KEPT) >= 70
    for name, (module, kept) in TORCHVISION_KEPT.items():
        assert {"transform", "target_transform", "transforms"} & {param for param, _ in kept}, name
        assert TORCHVISION_KEEPING[f"torchvision.datasets.{name}"] == kept
        assert TORCHVISION_KEEPING[f"torchvision.datasets.{module}.{name}"] == kept
    assert dict(TORCHVISION_KEPT["ImageFolder"][1]) == {"root": 0, "transform": 1, "target_transform": 2, "loader": 3}
    assert dict(TORCHVISION_KEPT["CIFAR10"][1])["transform"] == 2


def test_library_datasets_by_keyword_position_and_name(tmp_path):
    assert _reported(
        tmp_path,
        """\
        DataLoader(datasets.ImageFolder("r", transform=rgb), num_workers=2)
        DataLoader(torchvision.datasets.ImageFolder("r", rgb), num_workers=2)
        DataLoader(ImageFolder("r", None, rgb), num_workers=2)
        DataLoader(datasets.CIFAR10("r", False, rgb), num_workers=2)
        DataLoader(datasets.ImageFolder("r", transform=rgb), num_workers=0)
        DataLoader(datasets.ImageFolder("r", transforms.ToTensor()), num_workers=2)
        DataLoader(datasets.ImageFolder("r", is_valid_file=lambda p: True), num_workers=2)
        DataLoader(datasets.EMNIST("r", "byclass", rgb), num_workers=2)
        DataLoader(datasets.EMNIST("r", "byclass", transform=rgb), num_workers=2)
        """,
    ) == [1, 2, 3, 4, 9]  # EMNIST(root, split, **kwargs): its third positional is no transform


def test_project_subclasses(tmp_path):
    assert _reported(
        tmp_path,
        """\
        class NoInit(datasets.ImageFolder):
            def __getitem__(self, index):
                return super().__getitem__(index)

        class Positional(ImageFolder):
            def __init__(self, split, root, transform=None):
                super().__init__(root + split, transform)

        class Spread(ImageFolder):
            def __init__(self, root, *args, **kwargs):
                super().__init__(root, *args, **kwargs)

        class Popped(ImageFolder):
            def __init__(self, root, **kwargs):
                kwargs.pop("transform", None)
                super().__init__(root, **kwargs)

        class Replaced(ImageFolder):
            def set(self, transform):
                self.transforms = transform

        class Pickles(ImageFolder):
            def __reduce__(self):
                return (Pickles, (self.root,))

        class Branches(ImageFolder):
            def __init__(self, root, transform=None):
                if transform is None:
                    super().__init__(root)
                else:
                    super().__init__(root, transform=transform)

        class Rebound(ImageFolder):
            def __init__(self, root, transform=None):
                transform = transforms.ToTensor()
                super().__init__(root, transform=transform)

        DataLoader(NoInit("r", rgb), num_workers=2)
        DataLoader(Positional("train", "r", rgb), num_workers=2)
        DataLoader(Spread("r", transform=rgb), num_workers=2)
        DataLoader(Popped("r", transform=rgb), num_workers=2)
        DataLoader(Replaced("r", transform=rgb), num_workers=2)
        DataLoader(Pickles("r", transform=rgb), num_workers=2)
        DataLoader(Branches("r", transform=rgb), num_workers=2)
        DataLoader(Rebound("r", transform=rgb), num_workers=2)
        DataLoader(Positional("r", "train", transforms.ToTensor()), num_workers=2)
        """,
    ) == [38, 39, 40]


def test_project_bases_keep_what_a_subclass_passes_on(tmp_path):
    """The same reading for a project base (not torchvision's): the base keeps the parameter."""
    assert _reported(
        tmp_path,
        """\
        from torch.utils.data import Dataset

        class Base(Dataset):
            def __init__(self, root, transform=None):
                self.root = root
                self.transform = transform

        class Child(Base):
            def __init__(self, root, transform=None, size=1):
                super().__init__(root, transform=transform)
                self.size = size

        class Other(Base):
            def __init__(self, root, transform=None):
                super().__init__(root)

        DataLoader(Child("r", rgb), num_workers=2)
        DataLoader(Other("r", rgb), num_workers=2)
        """,
    ) == [17]


def test_a_run_on_the_loader_file_alone_reports_the_same():
    """Issue 26: the subclasses live in folders.py; train.py linted alone reads them too."""
    folder = ROOT / "fixtures" / "rules" / "dl202_torchvision_subclass_module"

    def rows(paths):
        result = lint_paths(paths, overrides={"select": ("DL202",)})
        return sorted((Path(d.filename).name, d.location.row) for d in result.diagnostics)

    assert rows([folder / "train.py"]) == rows([folder]) == [("train.py", 12), ("train.py", 13)]


def test_a_dataset_chosen_between_classes_names_both(tmp_path):
    """stargan-v2's shape: one transform with a lambda, an ImageFolder on one branch and a
    project dataset keeping it on the other: every path fails, and the message names both."""
    script = tmp_path / "train.py"
    script.write_text(
        HEADER
        + textwrap.dedent(
            """\
            class Pairs:
                def __init__(self, root, transform=None):
                    self.transform = transform

            def loader(root, which):
                if which == "source":
                    dataset = ImageFolder(root, rgb)
                else:
                    dataset = Pairs(root, rgb)
                return DataLoader(dataset, num_workers=4)
            """
        ),
        encoding="utf-8",
    )
    (found,) = lint_paths([script], overrides={"select": ("DL202",)}).diagnostics
    text = f"{found.message} {found.detail}"
    assert "an ImageFolder or a Pairs that keeps a lambda in a Lambda" in text, text


@pytest.mark.parametrize(
    "name, said",
    [("MNIST", "an MNIST"), ("SVHN", "an SVHN"), ("KMNIST", "a KMNIST"), ("USPS", "a USPS"), ("ImageFolder", "an ImageFolder"),
     ("iBims", "an iBims"), ("FashionMNIST", "a FashionMNIST"), ("CIFAR10", "a CIFAR10"), ("UCF101", "a UCF101")],
)  # fmt: skip
def test_dl202_names_a_class_with_the_article_it_is_read_with(name, said):
    """Initialisms are read letter by letter (``an MNIST``, ``a USPS``), other names by their
    first letter (``an ImageFolder``, ``a FashionMNIST``): torchvision's dataset names now reach
    DL202's messages."""
    from dl_lint.rules.dl202_unpicklable_worker_callable import _a

    assert _a(name) == said
