# estimate kind: a wrapper dataset whose __getitem__ combines what an inner dataset returns
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, index):
        return {"image": torch.randn(3, 64, 64), "target": index % 10}


class Neighbors(Dataset):
    """Two samples of the inner dataset: the anchor's and a neighbour's images, the anchor's target."""

    def __init__(self, dataset, num_neighbors=5):
        self.dataset = dataset
        self.num_neighbors = num_neighbors

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        anchor = self.dataset[index]
        neighbor = self.dataset.__getitem__((index + 1) % len(self.dataset))
        return {"anchor": anchor["image"], "neighbor": neighbor["image"], "target": anchor["target"]}


class Pairs(Dataset):
    """Two whole samples of the inner dataset, as a tuple."""

    def __init__(self, base):
        self.base = base

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        return self.base[i], self.base[(i + 7) % len(self.base)]


def make():
    return DataLoader(Neighbors(Images()), batch_size=64, num_workers=4)


def make_pairs():
    return DataLoader(Pairs(Neighbors(Images())), batch_size=32, num_workers=4)
