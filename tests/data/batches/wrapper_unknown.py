# negatives: wrapper datasets whose sample stays unknown (each loader's bytes are not estimated)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self, transform=None):
        self.transform = transform

    def __len__(self):
        return 1000

    def __getitem__(self, index):
        return {"image": torch.randn(3, 64, 64), "target": index % 10}


class Listed(Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return torch.load(self.files[index])


class Retransformed(Dataset):
    """Sets the inner dataset's transform: what it returns is not what it was built to return."""

    def __init__(self, dataset, transform):
        dataset.transform = None
        self.dataset = dataset
        self.transform = transform

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        sample = self.dataset[index]
        return {"image": sample["image"], "target": sample["target"]}


class Epochs(Dataset):
    """Calls a method of the inner dataset, which may change it."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def set_epoch(self, epoch):
        self.dataset.set_epoch(epoch)

    def __getitem__(self, index):
        return self.dataset[index]


class MissingKey(Dataset):
    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        return self.dataset[index]["mask"]


class Sliced(Dataset):
    """A slice of the inner dataset is a list of samples: not one sample."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        return self.dataset[index : index + 4]


class Keyed(Dataset):
    """A key of a tuple sample: the inner sample is not a dict."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        return self.dataset[index]["image"]


class Tuples(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, index):
        return torch.randn(3, 8, 8), 0


def make(files, indices, inner):
    return [
        DataLoader(Retransformed(Images(), None), batch_size=8, num_workers=2),
        DataLoader(Epochs(Images()), batch_size=8, num_workers=2),
        DataLoader(MissingKey(Images()), batch_size=8, num_workers=2),
        DataLoader(Sliced(Images()), batch_size=8, num_workers=2),
        DataLoader(Keyed(Tuples()), batch_size=8, num_workers=2),
        DataLoader(Epochs(Listed(files)), batch_size=8, num_workers=2),
        DataLoader(MissingKey(inner), batch_size=8, num_workers=2),
    ]
