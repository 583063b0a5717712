# estimate kind: torch tensors of literal shape (the example)
import torch
from torch.utils.data import DataLoader, Dataset


class Rand(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, index):
        return torch.randn(3, 224, 224), index % 1000


def make():
    return DataLoader(Rand(), batch_size=128, num_workers=4)
