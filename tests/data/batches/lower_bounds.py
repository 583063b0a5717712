# Samples with a part of known size beside parts of unknown size: the estimate is a lower bound
# (the unknown parts count as 0 bytes), and says so.
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class Labelled(Dataset):
    def __init__(self, files, labels, transform=None):
        self.files, self.labels = files, labels
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = self.transform(Image.open(self.files[i]).convert("RGB"))
        return img, self.labels[i]  # a label of unknown type and size: not counted


class Images(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, index):
        return {"image": torch.randn(3, 64, 64), "target": index % 10}


class WithIndices(Dataset):
    """A field of its own whose size is not known (the neighbours' indices)."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        anchor = self.dataset[index]
        return {"anchor": anchor["image"], "possible_neighbors": torch.from_numpy(self.indices[index])}


a = DataLoader(Labelled(["a.jpg"], [0], transforms.Compose([transforms.CenterCrop(224), transforms.ToTensor()])), batch_size=8, num_workers=2)
b = DataLoader(WithIndices(Images(), np.zeros((1000, 5), dtype=np.int64)), batch_size=8, num_workers=2)
